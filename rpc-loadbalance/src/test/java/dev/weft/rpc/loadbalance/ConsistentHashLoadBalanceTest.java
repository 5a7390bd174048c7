package dev.weft.rpc.loadbalance;

import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.spi.ExtensionDirector;
import static dev.weft.rpc.loadbalance.Fixtures.provider;
import static dev.weft.rpc.loadbalance.Fixtures.ticker;
import static dev.weft.rpc.loadbalance.Fixtures.director;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.internal.KeyHash;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.weft.rpc.loadbalance.Fixtures.CONSUMER;
import static dev.weft.rpc.loadbalance.Fixtures.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConsistentHashLoadBalanceTest {

    private final dev.weft.rpc.spi.ExtensionDirector director = director(ticker());
    private final CallStats stats = CallStats.of(director);
    private final ConsistentHashLoadBalance balance = new ConsistentHashLoadBalance();

    {
        balance.setExtensionDirector(director);
    }
    private final List<Invoker<FakeService>> ten = Fixtures.plain(10);

    private Map<String, Invoker<FakeService>> route(List<Invoker<FakeService>> invokers, URL url, int keys) {
        Map<String, Invoker<FakeService>> owners = new HashMap<>();
        for (int k = 0; k < keys; k++) {
            owners.put("user-" + k, balance.select(invokers, url, call("find", "user-" + k)));
        }
        return owners;
    }

    @Test
    void keyHash_isStableAcrossVersions_pinnedValues() {
        assertThat(Long.toHexString(KeyHash.of(""))).isEqualTo(PINNED_EMPTY);
        assertThat(Long.toHexString(KeyHash.of("user-42"))).isEqualTo(PINNED_USER_42);
        assertThat(Long.toHexString(KeyHash.of("10.0.0.1:20880#0"))).isEqualTo(PINNED_POINT);
        assertThat(Long.toHexString(KeyHash.of("abcdefghijklm"))).isEqualTo(PINNED_13_UNITS);
        assertThat(Long.toHexString(KeyHash.of("h\u00e9llo \u4e16\u754c \ud83d\ude00"))).isEqualTo(PINNED_UTF16);
        assertThat(Long.toHexString(KeyHash.ofArguments(new Object[] {"ab", "c"}, new int[] {0, 1}))).isEqualTo(PINNED_TWO_ARGUMENTS);
        assertThat(Long.toHexString(KeyHash.ofArguments(new Object[] {null, "x"}, new int[] {0, 1}))).isEqualTo(PINNED_NULL_FIRST);
        assertThat(Long.toHexString(KeyHash.ofArguments(new Object[] {"x"}, new int[] {0, 1}))).isEqualTo(PINNED_ABSENT_SECOND);
        assertThat(KeyHash.ofArguments(new Object[] {"user-42"}, new int[] {0})).isEqualTo(KeyHash.of("user-42"));
    }

    // Reproduced independently (a few lines of Python following the KeyHash Javadoc, 128-bit
    // products with Python integers); never change them.
    private static final String PINNED_EMPTY = "e8948076670ef52f";
    private static final String PINNED_USER_42 = "ad9180b91518390c";
    private static final String PINNED_POINT = "f2c9d015d3c9400e";
    private static final String PINNED_13_UNITS = "352c57c414d3c9ba";
    private static final String PINNED_UTF16 = "96fa49c11b9f1c44";
    private static final String PINNED_TWO_ARGUMENTS = "b2a7fdd9fa93d1dc";
    private static final String PINNED_NULL_FIRST = "719e1498a8ffb67d";
    private static final String PINNED_ABSENT_SECOND = "94120b83341f8f6d";

    @Test
    void keyHash_matchesTheDefinition_forEveryLengthAndUnitRange() {
        StringBuilder text = new StringBuilder();
        for (int length = 0; length <= 40; length++) {
            String s = text.toString();
            assertThat(KeyHash.of(s)).as("length %d", length).isEqualTo(ReferenceKeyHash.of(s));
            assertThat(KeyHash.ofArguments(new Object[] {s}, new int[] {0})).as("argument, length %d", length).isEqualTo(ReferenceKeyHash.of(s));
            assertThat(KeyHash.ofArguments(new Object[] {s, length, null}, new int[] {2, 0, 1, 3}))
                    .as("arguments, length %d", length)
                    .isEqualTo(ReferenceKeyHash.ofValues(null, s, String.valueOf(length), ReferenceKeyHash.ABSENT));
            // cycle through ASCII, Latin-1, BMP and surrogate code units so every unit bit matters
            text.append((char) (length % 4 == 0 ? 'a' + length : length % 4 == 1 ? 0xE9 : length % 4 == 2 ? 0x4E16 + length : 0xD83D));
        }
    }

    @Test
    void keyHash_joinsArgumentsUnambiguously() {
        int[] both = {0, 1};
        assertThat(KeyHash.ofArguments(new Object[] {"ab", "c"}, both)).isNotEqualTo(KeyHash.ofArguments(new Object[] {"a", "bc"}, both));
        assertThat(KeyHash.ofArguments(new Object[] {null, "x"}, both)).isNotEqualTo(KeyHash.ofArguments(new Object[] {"null", "x"}, both));
        assertThat(KeyHash.ofArguments(new Object[] {"x"}, both)).isNotEqualTo(KeyHash.ofArguments(new Object[] {"x", null}, both));
        assertThat(KeyHash.ofArguments(new Object[] {42}, new int[] {0})).isEqualTo(KeyHash.of("42"));
    }

    @Test
    void keyHash_aSingleKeyArgumentBeyondTheCall_orNoArgumentsAtAll_hashesAsAbsent() {
        long absent = KeyHash.ofArguments(new Object[0], new int[] {1});
        assertThat(KeyHash.ofArguments(new Object[] {"x"}, new int[] {1})).isEqualTo(absent);
        assertThat(KeyHash.ofArguments(null, new int[] {1})).isEqualTo(absent);
        assertThat(KeyHash.ofArguments(null, new int[] {0})).isEqualTo(absent).isNotEqualTo(KeyHash.ofArguments(new Object[] {null}, new int[] {0}));
    }

    @Test
    void consistentHash_sameKey_sameInvoker_everyTime() {
        Invoker<FakeService> first = balance.select(ten, CONSUMER, call("find", "user-7"));
        for (int i = 0; i < 100; i++) {
            assertThat(balance.select(ten, CONSUMER, call("find", "user-7"))).isSameAs(first);
        }
    }

    @Test
    void consistentHash_10kKeysOn10Invokers_noInvokerOwnsMoreThan1_3xTheMean() {
        Map<Invoker<FakeService>, Integer> load = new HashMap<>();
        route(ten, CONSUMER, 10_000).values().forEach(owner -> load.merge(owner, 1, Integer::sum));
        assertThat(load).hasSize(10);
        assertThat(load.values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(1_300));
    }

    @Test
    void consistentHash_removingOneOf10_movesOnlyTheKeysItOwned() {
        Map<String, Invoker<FakeService>> before = route(ten, CONSUMER, 10_000);
        Invoker<FakeService> removed = ten.get(4);
        List<Invoker<FakeService>> nine = new ArrayList<>(ten);
        nine.remove(removed);
        Map<String, Invoker<FakeService>> after = route(List.copyOf(nine), CONSUMER, 10_000);
        int moved = 0;
        for (Map.Entry<String, Invoker<FakeService>> entry : before.entrySet()) {
            Invoker<FakeService> now = after.get(entry.getKey());
            if (entry.getValue() == removed) {
                assertThat(now).isNotSameAs(removed);
                moved++;
            } else {
                assertThat(now).as(entry.getKey()).isSameAs(entry.getValue());
            }
        }
        assertThat(moved).isBetween(700, 1_300);
    }

    @Test
    void consistentHash_addingAnInvoker_movesKeysOnlyToIt_andMatchesAFreshBalancer() {
        Map<String, Invoker<FakeService>> before = route(ten, CONSUMER, 5_000);
        List<Invoker<FakeService>> eleven = new ArrayList<>(ten);
        Invoker<FakeService> added = provider("new", "");
        eleven.add(added);
        Map<String, Invoker<FakeService>> after = route(List.copyOf(eleven), CONSUMER, 5_000);
        before.forEach((key, owner) -> assertThat(after.get(key)).isIn(owner, added));
        ConsistentHashLoadBalance fresh = new ConsistentHashLoadBalance();
        after.forEach((key, owner) -> assertThat(fresh.select(List.copyOf(eleven), CONSUMER, call("find", key))).isSameAs(owner));
    }

    @Test
    void consistentHash_aSubsetOrReorderedList_routesExactlyLikeARingBuiltForItAlone() {
        List<Invoker<FakeService>> subset = List.copyOf(ten.subList(2, 9));
        List<Invoker<FakeService>> reversed = new ArrayList<>(subset);
        java.util.Collections.reverse(reversed);
        route(ten, CONSUMER, 100);
        ConsistentHashLoadBalance fresh = new ConsistentHashLoadBalance();
        for (int k = 0; k < 2_000; k++) {
            Invoker<FakeService> owner = fresh.select(subset, CONSUMER, call("find", "user-" + k));
            assertThat(balance.select(subset, CONSUMER, call("find", "user-" + k))).isSameAs(owner);
            assertThat(balance.select(reversed, CONSUMER, call("find", "user-" + k))).isSameAs(owner);
        }
    }

    @Test
    void consistentHash_hashArguments_selectsWhichArgumentsFormTheKey_methodLevelFirst() {
        URL url = CONSUMER.addParameter("hash.arguments", "1").addParameter("find.hash.arguments", "0,1");
        Map<Invoker<FakeService>, Integer> byFirstArgOnly = new HashMap<>();
        for (int k = 0; k < 200; k++) {
            // "other" keys on argument 1, which is constant here: one owner
            byFirstArgOnly.merge(balance.select(ten, url, call("other", "user-" + k, "tenant")), 1, Integer::sum);
        }
        assertThat(byFirstArgOnly).hasSize(1);
        Map<Invoker<FakeService>, Integer> byBoth = new HashMap<>();
        for (int k = 0; k < 200; k++) {
            byBoth.merge(balance.select(ten, url, call("find", "user-" + k, "tenant")), 1, Integer::sum);
        }
        assertThat(byBoth.size()).isGreaterThan(5);
    }

    @Test
    void consistentHash_boundedLoad_anOverloadedOwnerPassesItsKeysOn() {
        URL bounded = CONSUMER.addParameter("hash.load.factor", "1.25");
        Invoker<FakeService> owner = balance.select(ten, bounded, call("find", "hot"));
        for (Invoker<FakeService> invoker : ten) {
            stats.get(invoker).startCall();
        }
        assertThat(balance.select(ten, bounded, call("find", "hot"))).as("at the mean").isSameAs(owner);
        stats.get(owner).startCall();
        stats.get(owner).startCall();
        // 12 in flight over 10 invokers: capacity ceil(1.25 * 13 / 10) = 2; the owner has 3
        Invoker<FakeService> next = balance.select(ten, bounded, call("find", "hot"));
        assertThat(next).isNotSameAs(owner);
        assertThat(balance.select(ten, CONSUMER, call("find", "hot"))).as("unbounded ignores load").isSameAs(owner);
        for (Invoker<FakeService> invoker : ten) {
            stats.get(invoker).endCall(InvokerStats.UNTIMED, true);
        }
        stats.get(owner).endCall(InvokerStats.UNTIMED, true);
        stats.get(owner).endCall(InvokerStats.UNTIMED, true);
        assertThat(balance.select(ten, bounded, call("find", "hot"))).isSameAs(owner);
    }

    @Test
    void consistentHash_badKeys_failNamingKeyAndValue() {
        assertThatThrownBy(() -> balance.select(ten, CONSUMER.addParameter("hash.arguments", "0,x"), call("find", "k")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("hash.arguments: 0,x (expected: comma-separated integers >= 0, e.g. 0,2) in consumer URL");
        assertThatThrownBy(() -> balance.select(ten, CONSUMER.addParameter("find.hash.nodes", 0), call("find", "k")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("find.hash.nodes: 0 (expected: an integer from 1 to 10000)");
        assertThatThrownBy(() -> balance.select(ten, CONSUMER.addParameter("hash.load.factor", "0.5"), call("find", "k")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("hash.load.factor: 0.5 (expected: a number >= 1.0)");
    }

    @Test
    void consistentHash_hashNodes_setsVirtualNodesPerInvoker() {
        URL few = CONSUMER.addParameter("hash.nodes", 1);
        Map<Invoker<FakeService>, Integer> load = new HashMap<>();
        route(ten, few, 10_000).values().forEach(o -> load.merge(o, 1, Integer::sum));
        // with a single point per invoker the ring is badly unbalanced, unlike the default 160
        assertThat(load.values().stream().mapToInt(Integer::intValue).max().getAsInt()).isGreaterThan(1_300);
    }
}
