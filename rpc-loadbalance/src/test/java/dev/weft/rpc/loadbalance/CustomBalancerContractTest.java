package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeProviders;
import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.FakeTicker;
import dev.weft.rpc.testing.Invocations;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What an extension author gets from {@link AbstractLoadBalance} and {@link LoadBalance}: the
 * trivial lists, {@code newPicker} with {@code Weights}, the default picker, and {@code select}
 * reusing a picker only for the same content.
 */
class CustomBalancerContractTest {

    private static final URL CONSUMER = URL.valueOf("consumer://10.1.0.1/" + FakeService.class.getName());

    private final FakeTicker ticker = new FakeTicker();
    private final ExtensionDirector director = new ExtensionDirector(CustomBalancerContractTest.class.getClassLoader(), ticker);
    private final CallStats stats = CallStats.of(director);
    private final Invocation call = Invocations.of(FakeService.class, "call", "x");

    @AfterEach
    void close() {
        director.close();
    }

    /** Picks the provider with the largest effective weight (ties: the first), through {@code Weights.read}. */
    static final class HeaviestLoadBalance extends AbstractLoadBalance {
        @Override
        protected <T> Picker<T> newPicker(List<Invoker<T>> invokers, URL url, String method, CallStats stats) {
            Weights weights = Weights.read(invokers, method, stats);
            return invocation -> {
                WeightTable table = weights.current();
                int best = 0;
                for (int i = 1; i < invokers.size(); i++) {
                    best = table.effectiveWeight(i) > table.effectiveWeight(best) ? i : best;
                }
                return invokers.get(best);
            };
        }
    }

    private static String name(Invoker<?> invoker) {
        return ((FakeProvider<?>) invoker).name();
    }

    private static List<String> selects(LoadBalance balance, List<Invoker<FakeService>> list, URL url, Invocation invocation, int n) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add(name(balance.select(list, url, invocation)));
        }
        return names;
    }

    @Test
    void weights_readMethodLevelWeights_andWarmupFromTheDirectorsClock() {
        HeaviestLoadBalance balance = new HeaviestLoadBalance();
        balance.setExtensionDirector(director);
        FakeProvider<FakeService> a = FakeProvider.named("a").weight(50);
        FakeProvider<FakeService> b = FakeProvider.named("b").weight(40).parameter("call.weight", "60");
        assertThat(name(balance.select(List.of(a, b), CONSUMER, call))).isEqualTo("b");
        assertThat(name(balance.select(List.of(a, b), CONSUMER, Invocations.of(FakeService.class, "run")))).isEqualTo("a");

        FakeProvider<FakeService> warming = FakeProvider.named("w").weight(100).warmup(Duration.ofSeconds(100), stats.currentTimeMillis());
        assertThat(name(balance.select(List.of(a, warming), CONSUMER, call))).isEqualTo("a");
        ticker.advance(Duration.ofSeconds(60));
        assertThat(name(balance.select(List.of(a, warming), CONSUMER, call))).isEqualTo("w");
    }

    @Test
    void weights_leaveAMalformedProviderOut_whileTheOthersServe() {
        HeaviestLoadBalance balance = new HeaviestLoadBalance();
        balance.setExtensionDirector(director);
        FakeProvider<FakeService> bad = FakeProvider.named("bad").weight(900).parameter("call.weight", "-5");
        assertThat(name(balance.select(List.of(FakeProvider.named("a"), bad), CONSUMER, call))).isEqualTo("a");
    }

    @Test
    void trivialLists_emptyIsAnErrorNamingServiceMethodBalancerAndConsumer_oneIsReturnedAsIs() {
        RoundRobinLoadBalance balance = new RoundRobinLoadBalance();
        balance.setExtensionDirector(director);
        String expected = "No provider available to call " + FakeService.class.getName() + ".call (load balance: RoundRobinLoadBalance,"
                + " the invoker list is empty; consumer: " + CONSUMER + ")";
        assertThatThrownBy(() -> balance.select(List.<Invoker<FakeService>>of(), CONSUMER, call))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.getCode()).isEqualTo(RpcException.NO_INVOKER_AVAILABLE))
                .hasMessage(expected);
        Picker<FakeService> empty = balance.picker(List.of(), CONSUMER, "call", stats);
        assertThatThrownBy(() -> empty.pick(call)).isInstanceOf(RpcException.class).hasMessage(expected);
        FakeProvider<FakeService> only = FakeProvider.named("only").weight(0);
        assertThat(balance.picker(List.of(only), CONSUMER, "call", stats).pick(call)).isSameAs(only);
        assertThatThrownBy(() -> balance.picker(List.of(only), null, "call", stats)).isInstanceOf(NullPointerException.class).hasMessage("url");
        assertThatThrownBy(() -> balance.picker(List.of(only), CONSUMER, "call", null)).isInstanceOf(NullPointerException.class)
                .hasMessage("stats");
    }

    @Test
    void defaultPicker_ofABalancerThatOnlySelects_answersFromACopyOfTheList() {
        LoadBalance last = new LoadBalance() {
            @Override
            public <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) {
                return invokers.get(invokers.size() - 1);
            }
        };
        List<Invoker<FakeService>> list = new ArrayList<>(FakeProviders.invokers(FakeProviders.of(FakeService.class, 3)));
        Picker<FakeService> picker = last.picker(list, CONSUMER, "call", stats);
        list.remove(2);
        assertThat(name(picker.pick(call))).isEqualTo("c");
    }

    @Test
    void select_sameContent_continuesOnePicker_changedContentOrConsumerStartsAfresh() {
        RoundRobinLoadBalance balance = new RoundRobinLoadBalance();
        balance.setExtensionDirector(director);
        List<Invoker<FakeService>> list = FakeProviders.invokers(FakeProviders.of(FakeService.class, 2));
        assertThat(selects(balance, list, CONSUMER, call, 3)).containsExactly("a", "b", "a");
        // an equal list and an equal consumer URL: the same picker goes on
        assertThat(selects(balance, new ArrayList<>(list), URL.valueOf(CONSUMER.toString()), call, 1)).containsExactly("b");
        // another consumer URL: a fresh sequence
        URL other = CONSUMER.addParameter("x", "1");
        assertThat(selects(balance, list, other, call, 2)).containsExactly("a", "b");
        // a provider whose URL changed (same invoker object): a fresh sequence over the new weights
        FakeProvider<FakeService> p = FakeProvider.named("p");
        FakeProvider<FakeService> q = FakeProvider.named("q");
        List<Invoker<FakeService>> pq = List.of(p, q);
        assertThat(selects(balance, pq, CONSUMER, call, 1)).containsExactly("p");
        q.weight(300);
        assertThat(selects(balance, pq, CONSUMER, call, 4)).containsExactly("q", "p", "q", "q");
        // a list of another length or other invokers: a fresh sequence
        assertThat(selects(balance, List.of(q, p), CONSUMER, call, 1)).containsExactly("q");
        assertThat(selects(balance, List.of(p, q, FakeProvider.named("r")), CONSUMER, call, 2)).containsExactly("q", "p");
    }

    @Test
    void select_remembersAtMost1024ServiceMethods_droppingTheLeastRecentlyUsed() {
        RoundRobinLoadBalance balance = new RoundRobinLoadBalance();
        balance.setExtensionDirector(director);
        List<Invoker<FakeService>> list = FakeProviders.invokers(FakeProviders.of(FakeService.class, 2));
        for (int i = 0; i < 1024; i++) {
            balance.select(list, URL.valueOf("consumer://10.1.0.1/com.example.S" + i), Invocations.named("m" + (i % 2)));
        }
        balance.select(list, URL.valueOf("consumer://10.1.0.1/com.example.S0"), Invocations.named("m0"));   // now the most recent
        balance.select(list, CONSUMER, call);                                                                // drops S1.m1
        assertThat(selects(balance, list, URL.valueOf("consumer://10.1.0.1/com.example.S0"), Invocations.named("m0"), 2))
                .containsExactly("a", "b");
        assertThat(selects(balance, list, URL.valueOf("consumer://10.1.0.1/com.example.S2"), Invocations.named("m0"), 2))
                .containsExactly("b", "a");
        assertThat(selects(balance, list, URL.valueOf("consumer://10.1.0.1/com.example.S1"), Invocations.named("m1"), 2))
                .containsExactly("a", "b");
    }
}
