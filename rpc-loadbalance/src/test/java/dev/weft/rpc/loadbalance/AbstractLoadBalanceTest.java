package dev.weft.rpc.loadbalance;

import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.FakeTicker;
import java.util.concurrent.TimeUnit;
import static dev.weft.rpc.loadbalance.Fixtures.provider;
import static dev.weft.rpc.loadbalance.Fixtures.ticker;
import static dev.weft.rpc.loadbalance.Fixtures.stats;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.weft.rpc.loadbalance.Fixtures.CONSUMER;
import static dev.weft.rpc.loadbalance.Fixtures.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AbstractLoadBalanceTest {

    private final AtomicInteger subclassCalls = new AtomicInteger();
    private final AbstractLoadBalance counting = new AbstractLoadBalance() {
        @Override
        protected <T> Picker<T> newPicker(List<Invoker<T>> invokers, URL url, String method, CallStats stats) {
            return invocation -> {
                subclassCalls.incrementAndGet();
                return invokers.get(invokers.size() - 1);
            };
        }
    };

    @Test
    void select_emptyList_throwsNoInvokerAvailable_namingTheService() {
        assertThatThrownBy(() -> counting.select(List.of(), CONSUMER, call("sayHello")))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.getCode()).isEqualTo(RpcException.NO_INVOKER_AVAILABLE))
                .hasMessageContaining("dev.weft.Demo.sayHello")
                .hasMessageContaining("the invoker list is empty");
        assertThat(subclassCalls).hasValue(0);
    }

    @Test
    void select_singleInvoker_returnsIt_withoutTheSubclass() {
        Invoker<FakeService> only = provider("only", "weight=-3");
        assertThat(counting.select(List.of(only), CONSUMER, call("sayHello"))).isSameAs(only);
        assertThat(subclassCalls).hasValue(0);
    }

    @Test
    void select_twoInvokers_delegatesToTheSubclass() {
        List<Invoker<FakeService>> two = Fixtures.plain(2);
        assertThat(counting.select(two, CONSUMER, call("sayHello"))).isSameAs(two.get(1));
        assertThat(subclassCalls).hasValue(1);
    }

    @Test
    void weights_readMethodLevelFirst_andApplyWarmup() {
        FakeTicker ticker = ticker();
        CallStats stats = stats(ticker);
        long now = stats.currentTimeMillis();
        Invoker<FakeService> warming = provider("w", "weight=200&sayHello.weight=80&warmup=1000&timestamp=" + (now - 250));
        assertThat(Weights.read(List.of(warming), "sayHello", stats).current().weight(0)).isEqualTo(20);
        Weights other = Weights.read(List.of(warming), "other", stats);
        assertThat(other.current().weight(0)).isEqualTo(50);
        ticker.advance(500, TimeUnit.MILLISECONDS);
        assertThat(other.current().weight(0)).as("the director's ticker moves warm-up").isEqualTo(150);
    }

    @Test
    void select_negativeWeight_leavesThatProviderOut_theOthersServe() {
        Invoker<FakeService> good = provider("a", "");
        List<Invoker<FakeService>> invokers = List.of(good, provider("b", "weight=-5"));
        for (LoadBalance balance : List.of(new RandomLoadBalance(), new RoundRobinLoadBalance(), new LeastActiveLoadBalance(),
                new ShortestResponseLoadBalance(), new P2cLoadBalance())) {
            for (int i = 0; i < 50; i++) {
                assertThat(balance.select(invokers, CONSUMER, call("sayHello"))).as(balance.toString()).isSameAs(good);
            }
        }
        assertThat(Weights.read(invokers, "sayHello", stats(ticker())).current().problems())
                .containsExactly("weight: -5 (expected: an integer >= 0) in provider URL weft://b:20880/dev.weft.rpc.testing.FakeService?weight=-5");
    }

    @Test
    void select_everyProviderMalformed_failsNamingKeyValueAndProviderUrl() {
        List<Invoker<FakeService>> invokers = List.of(provider("a", "sayHello.weight=heavy"), provider("b", "weight=-5"));
        RoundRobinLoadBalance balance = new RoundRobinLoadBalance();
        assertThatThrownBy(() -> balance.select(invokers, CONSUMER, call("sayHello")))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.getCode()).isEqualTo(RpcException.NO_INVOKER_AVAILABLE))
                .hasMessageContaining("sayHello.weight: heavy (expected: an integer >= 0) in provider URL weft://a:20880/")
                .hasMessageContaining("weight: -5 (expected");
        assertThatThrownBy(() -> new RandomLoadBalance().select(invokers, CONSUMER, call("sayHello")))
                .hasMessageContaining("weight: -5");
    }

    @Test
    void select_malformedTimestamp_failsNamingTheKey() {
        List<Invoker<FakeService>> invokers = List.of(provider("a", ""), provider("b", "timestamp=yesterday"));
        assertThat(Weights.read(invokers, "sayHello", stats(ticker())).current().problems()).singleElement(
                org.assertj.core.api.InstanceOfAssertFactories.STRING).startsWith("timestamp: yesterday (expected: an integer) in provider URL");
        for (int i = 0; i < 20; i++) {
            assertThat(new RandomLoadBalance().select(invokers, CONSUMER, call("sayHello"))).isSameAs(invokers.get(0));
        }
    }

    @Test
    void select_mutableListChangedInPlace_picksOnlyWhatTheListHoldsNow() {
        for (LoadBalance balance : List.of(new RandomLoadBalance(), new RoundRobinLoadBalance(), new LeastActiveLoadBalance(),
                new ShortestResponseLoadBalance(), new P2cLoadBalance(), new ConsistentHashLoadBalance())) {
            List<Invoker<FakeService>> list = new ArrayList<>(Fixtures.plain(3));
            for (int i = 0; i < 100; i++) {
                balance.select(list, CONSUMER, call("sayHello", "key-" + i));
            }
            Invoker<FakeService> removed = list.remove(2);
            Invoker<FakeService> drained = provider("i1", "weight=0");
            list.set(1, drained);
            for (int i = 0; i < 1000; i++) {
                Invoker<FakeService> chosen = balance.select(list, CONSUMER, call("sayHello", "key-" + i));
                assertThat(chosen).as(balance.getClass().getSimpleName()).isIn(list).isNotSameAs(removed);
                if (!(balance instanceof ConsistentHashLoadBalance)) {
                    assertThat(chosen).as(balance.getClass().getSimpleName() + " picks weight 0").isNotSameAs(drained);
                }
            }
        }
    }
}
