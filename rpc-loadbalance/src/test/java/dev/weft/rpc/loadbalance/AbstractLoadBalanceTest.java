package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.weft.rpc.loadbalance.Fixtures.CONSUMER;
import static dev.weft.rpc.loadbalance.Fixtures.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AbstractLoadBalanceTest {

    private final AtomicInteger subclassCalls = new AtomicInteger();
    private final AbstractLoadBalance counting = new AbstractLoadBalance() {
        @Override
        protected <T> Invoker<T> doSelect(List<Invoker<T>> invokers, URL url, Invocation invocation) {
            subclassCalls.incrementAndGet();
            return invokers.get(invokers.size() - 1);
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
        Invoker<Object> only = FakeInvoker.of("only", 1, "weight=-3");
        assertThat(counting.select(List.of(only), CONSUMER, call("sayHello"))).isSameAs(only);
        assertThat(subclassCalls).hasValue(0);
    }

    @Test
    void select_twoInvokers_delegatesToTheSubclass() {
        List<Invoker<Object>> two = Fixtures.plain(2);
        assertThat(counting.select(two, CONSUMER, call("sayHello"))).isSameAs(two.get(1));
        assertThat(subclassCalls).hasValue(1);
    }

    @Test
    void getWeight_readsMethodLevelFirst_andAppliesWarmup() {
        FakeTime time = new FakeTime();
        AbstractLoadBalance balance = new RandomLoadBalance(time, () -> new Random(1));
        long now = time.currentTimeMillis();
        Invoker<Object> warming = FakeInvoker.of("w", 1, "weight=200&sayHello.weight=80&warmup=1000&timestamp=" + (now - 250));
        assertThat(balance.getWeight(warming, call("sayHello"))).isEqualTo(20);
        assertThat(balance.getWeight(warming, call("other"))).isEqualTo(50);
    }

    @Test
    void select_negativeWeight_failsNamingKeyValueAndProviderUrl() {
        List<Invoker<Object>> invokers = List.of(FakeInvoker.of("a", 1, ""), FakeInvoker.of("b", 2, "weight=-5"));
        RandomLoadBalance balance = new RandomLoadBalance();
        assertThatThrownBy(() -> balance.select(invokers, CONSUMER, call("sayHello")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("weight: -5 (expected: an integer between 0 and 2147483647) in provider URL weft://10.0.0.2:20880/dev.weft.Demo?weight=-5");
    }

    @Test
    void select_nonNumericMethodWeight_namesTheMethodKey() {
        List<Invoker<Object>> invokers = List.of(FakeInvoker.of("a", 1, ""), FakeInvoker.of("b", 2, "sayHello.weight=heavy"));
        RoundRobinLoadBalance balance = new RoundRobinLoadBalance();
        assertThatThrownBy(() -> balance.select(invokers, CONSUMER, call("sayHello")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("sayHello.weight: heavy (expected: an integer between 0 and 2147483647) in provider URL weft://10.0.0.2:20880/");
        assertThat(balance.select(invokers, CONSUMER, call("other"))).isIn(invokers);
    }

    @Test
    void select_badWeight_isDetectedOncePerList_notRereadPerCall() {
        FakeInvoker good = FakeInvoker.of("a", 1, "");
        FakeInvoker bad = FakeInvoker.of("b", 2, "weight=x");
        List<Invoker<Object>> invokers = List.of(good, bad);
        LeastActiveLoadBalance balance = new LeastActiveLoadBalance();
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> balance.select(invokers, CONSUMER, call("sayHello")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("weight: x (expected: an integer between 0 and 2147483647) in provider URL");
        }
        assertThat(bad.urlReads).hasValue(1);
    }

    @Test
    void select_malformedTimestamp_failsNamingTheKey() {
        List<Invoker<Object>> invokers = List.of(FakeInvoker.of("a", 1, ""), FakeInvoker.of("b", 2, "timestamp=yesterday"));
        assertThatThrownBy(() -> new RandomLoadBalance().select(invokers, CONSUMER, call("sayHello")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("timestamp: yesterday (expected: epoch milliseconds) in provider URL");
    }

    @Test
    void weights_areReadOncePerListInstance_notPerCall() {
        List<Invoker<Object>> invokers = Fixtures.weighted(3, 1, 2);
        RandomLoadBalance balance = new RandomLoadBalance();
        for (int i = 0; i < 1000; i++) {
            balance.select(invokers, CONSUMER, call("sayHello"));
        }
        for (Invoker<Object> invoker : invokers) {
            assertThat(((FakeInvoker) invoker).urlReads).hasValue(1);
        }
    }
}
