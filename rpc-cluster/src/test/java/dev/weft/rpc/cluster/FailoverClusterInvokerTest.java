package dev.weft.rpc.cluster;

import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.weft.rpc.cluster.TestClusters.bye;
import static dev.weft.rpc.cluster.TestClusters.consumer;
import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.first;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static dev.weft.rpc.cluster.TestClusters.using;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FailoverClusterInvokerTest {

    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");
    private final FakeProvider<Greeting> c = FakeProvider.of(Greeting.class, "10.0.0.3");

    /** Records the order in which providers were called. */
    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());

    private Invoker<Greeting> join(DynamicDirectory<Greeting> directory) {
        return first(new FailoverCluster()).join(directory);
    }

    private Reply recordThen(Reply behaviour) {
        return (invocation, self) -> {
            calls.add(self.name());
            return behaviour.reply(invocation, self);
        };
    }

    @Test
    void failover_retriesOnNetworkError_onDistinctInvokers() throws Throwable {
        a.answering(recordThen(Reply.networkError()));
        b.answering(recordThen(Reply.timeout()));
        c.answering(recordThen(Reply.providerName()));

        Result result = join(directory("", a, b, c)).invoke(hello());

        assertThat(result.recreate()).isEqualTo("10.0.0.3");
        assertThat(calls).containsExactly("10.0.0.1", "10.0.0.2", "10.0.0.3");
    }

    @Test
    void failover_givesUp_namingMethodServiceAttemptsProvidersAndLastCause_keepingItsCode() {
        a.answering(Reply.networkError());
        b.answering(Reply.timeout());
        c.answering(Reply.networkError());

        assertThatThrownBy(() -> join(directory("retries=1", a, b, c)).invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.isTimeout()).isTrue();
                    assertThat(e.getCause()).hasMessage("scripted timeout at fake provider 10.0.0.2 (method hello)");
                })
                .hasMessage("Failed to invoke method hello of service dev.weft.rpc.cluster.Greeting after 2 attempts (retries=1);"
                        + " providers tried 2/3 [10.0.0.1:20880, 10.0.0.2:20880]"
                        + " (consumer: consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting?retries=1);"
                        + " last cause: RpcException: scripted timeout at fake provider 10.0.0.2 (method hello)");
        assertThat(c.calls()).isZero();
    }

    @Test
    void failover_retriesUnexpectedExceptions_andWrapsTheLastWithUnknownCode() {
        a.answering(Reply.throwing(new IllegalStateException("codec bug")));
        b.answering(Reply.throwing(new IllegalStateException("codec bug")));

        assertThatThrownBy(() -> join(directory("", a, b)).invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(RpcException.UNKNOWN_EXCEPTION);
                    assertThat(e.getCause()).isInstanceOf(IllegalStateException.class);
                })
                .hasMessageContaining("after 3 attempts (retries=2); providers tried 2/2 [10.0.0.2:20880, 10.0.0.1:20880]");
        assertThat(a.calls() + b.calls()).isEqualTo(3);
    }

    @Test
    void failover_neverRetriesBusinessExceptions_thrownOrCarriedInTheResult() {
        a.then(Reply.rpcFailure(RpcException.BIZ_EXCEPTION));
        assertThatThrownBy(() -> join(directory("", a, b)).invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isBiz()).isTrue())
                .hasMessage("scripted business failure at fake provider 10.0.0.1 (method hello)");
        assertThat(b.calls()).isZero();

        IllegalArgumentException fromService = new IllegalArgumentException("bad name");
        a.then(Reply.serviceException(fromService));
        Result result = join(directory("", a, b)).invoke(hello());
        assertThat(result.getException()).isSameAs(fromService);
        assertThat(b.calls()).isZero();
    }

    @Test
    void failover_negativeRetries_meansOneAttempt() {
        a.answering(Reply.networkError());

        assertThatThrownBy(() -> join(directory("retries=-3", a, b)).invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNetwork()).isTrue())
                .hasMessageContaining("after 1 attempt (retries=0); providers tried 1/2 [10.0.0.1:20880]");
        assertThat(b.calls()).isZero();
    }

    @Test
    void failover_readsRetriesAtMethodLevel() {
        a.answering(Reply.networkError());
        b.answering(Reply.networkError());
        c.answering(Reply.networkError());
        Invoker<Greeting> invoker = join(directory("retries=0&bye.retries=2", a, b, c));

        assertThatThrownBy(() -> invoker.invoke(hello())).hasMessageContaining("after 1 attempt");
        assertThatThrownBy(() -> invoker.invoke(bye())).hasMessageContaining("after 3 attempts");
    }

    @Test
    void failover_rotatesThroughTriedInvokers_whenRetriesExceedProviders() {
        a.answering(recordThen(Reply.networkError()));
        b.answering(recordThen(Reply.networkError()));

        assertThatThrownBy(() -> join(directory("retries=4", a, b)).invoke(hello()))
                .hasMessageContaining("after 5 attempts (retries=4); providers tried 2/2");
        assertThat(calls).containsExactly("10.0.0.1", "10.0.0.2", "10.0.0.1", "10.0.0.2", "10.0.0.1");
    }

    @Test
    void failover_relistsTheDirectoryBetweenAttempts() throws Throwable {
        DynamicDirectory<Greeting> directory = directory("", a);
        a.answering((invocation, self) -> {
            directory.setInvokers(List.of(b));
            throw new RpcException(RpcException.NETWORK_EXCEPTION, "a went away");
        });

        Result result = join(directory).invoke(hello());

        assertThat(result.recreate()).isEqualTo("10.0.0.2");
    }

    @Test
    void failover_stopsRetrying_whenTheDirectoryEmpties_keepingTheLastCause() {
        DynamicDirectory<Greeting> directory = directory("", a);
        a.answering((invocation, self) -> {
            directory.setInvokers(List.of());
            throw new RpcException(RpcException.TIMEOUT_EXCEPTION, "a timed out");
        });

        assertThatThrownBy(() -> join(directory).invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue())
                .hasMessageContaining("after 1 attempt (retries=2); providers tried 1/1");
    }

    @Test
    void emptyDirectory_failsWithNoInvokerAvailable_namingServiceMethodAndConsumer() {
        assertThatThrownBy(() -> join(directory("")).invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNoInvokerAvailable()).isTrue())
                .hasMessage("No provider available for method hello of service dev.weft.rpc.cluster.Greeting"
                        + " (consumer: consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting;"
                        + " the directory is empty or every provider is unavailable)");
    }

    @Test
    void unavailableInvokers_areNeverSelected() throws Throwable {
        a.available(false);

        assertThat(join(directory("", a, b)).invoke(hello()).recreate()).isEqualTo("10.0.0.2");
        assertThat(a.calls()).isZero();
    }

    @Test
    void invokerGoingDownAfterItWasListed_isNeverCalled_andLeavesTheCandidatesUntilItRecovers() throws Throwable {
        DynamicDirectory<Greeting> directory = directory("", a, b);
        Invoker<Greeting> invoker = using(new FailoverCluster(), new FirstLoadBalance()).join(directory);
        assertThat(invoker.invoke(hello()).recreate()).isEqualTo("10.0.0.1");

        a.available(false);
        assertThat(directory.state().candidates()).as("not known to be down yet").containsExactly(a, b);
        assertThat(invoker.invoke(hello()).recreate()).as("picked, found down, replaced").isEqualTo("10.0.0.2");
        assertThat(directory.state().candidates()).as("the cluster's exact re-list told the directory").containsExactly(b);
        assertThat(invoker.invoke(hello()).recreate()).isEqualTo("10.0.0.2");
        assertThat(a.calls()).isEqualTo(1);

        a.available(true);
        assertThat(invoker.invoke(hello()).recreate()).as("back as soon as it reports available").isEqualTo("10.0.0.1");
        assertThat(a.calls()).isEqualTo(2);
    }

    @Test
    void sticky_keepsTheLastInvokerWhileAvailable_perMethod() throws Throwable {
        RotatingLoadBalance rotating = new RotatingLoadBalance();
        Invoker<Greeting> invoker = using(new FailoverCluster(), rotating).join(directory("hello.sticky=true", a, b, c));

        assertThat(invoker.invoke(hello()).recreate()).isEqualTo("10.0.0.1");
        assertThat(invoker.invoke(hello()).recreate()).isEqualTo("10.0.0.1");
        assertThat(invoker.invoke(bye()).recreate()).as("bye is not sticky").isEqualTo("10.0.0.2");
        assertThat(invoker.invoke(bye()).recreate()).isEqualTo("10.0.0.3");

        a.available(false);
        // rotation: the balancer picks a (position 3 of [a, b, c]), found down; it picks again among
        // the exact list [b, c] at position 4, i.e. b
        assertThat(invoker.invoke(hello()).recreate()).as("unavailable sticky invoker is replaced").isEqualTo("10.0.0.2");
        a.available(true);
        assertThat(invoker.invoke(hello()).recreate()).as("the replacement sticks").isEqualTo("10.0.0.2");
        assertThat(a.calls()).isEqualTo(2);
    }

    @Test
    void sticky_failedStickyInvoker_isNotRetriedWithinTheCall() throws Throwable {
        Invoker<Greeting> invoker = first(new FailoverCluster()).join(directory("sticky=true", a, b));
        a.then(Reply.networkError());

        assertThat(invoker.invoke(hello()).recreate()).isEqualTo("10.0.0.2");
        assertThat(invoker.invoke(hello()).recreate()).as("the retry's invoker becomes sticky").isEqualTo("10.0.0.2");
    }

    @Test
    void reselect_avoidsTriedInvokers_evenWhenTheBalancerKeepsChoosingThem() throws Throwable {
        a.answering(Reply.networkError());

        Result result = first(new FailoverCluster()).join(directory("", a, b, c)).invoke(hello());

        assertThat(result.recreate()).isEqualTo("10.0.0.2");
        assertThat(a.calls()).isEqualTo(1);
    }

    @Test
    void balancer_isResolvedWhenAStateIsBuilt_notPerCall() throws Throwable {
        AtomicInteger lookups = new AtomicInteger();
        List<String> names = Collections.synchronizedList(new ArrayList<>());
        FailoverCluster cluster = new FailoverCluster();
        cluster.useLoadBalances(name -> {
            lookups.incrementAndGet();
            names.add(name);
            return new FirstLoadBalance();
        });
        Invoker<Greeting> invoker = cluster.join(directory("loadbalance=first&bye.loadbalance=other", a, b));
        invoker.invoke(hello());
        invoker.invoke(bye());
        int afterFirstCalls = lookups.get();

        for (int i = 0; i < 100; i++) {
            invoker.invoke(hello());
            invoker.invoke(bye());
        }

        assertThat(lookups).hasValue(afterFirstCalls);
        assertThat(names).containsOnly("first", "other").contains("other");
    }

    @Test
    void unknownBalancer_surfacesTheLoadersError_andIsNotCached() {
        FailoverCluster cluster = new FailoverCluster();
        AtomicInteger lookups = new AtomicInteger();
        cluster.useLoadBalances(name -> {
            lookups.incrementAndGet();
            throw new IllegalStateException("No extension '" + name + "' for dev.weft.rpc.loadbalance.LoadBalance (available: [random])");
        });
        assertThatThrownBy(() -> cluster.join(directory("loadbalance=randon", a)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("loadbalance: randon (expected: a LoadBalance extension;"
                        + " No extension 'randon' for dev.weft.rpc.loadbalance.LoadBalance (available: [random])) in consumer URL");
        assertThatThrownBy(() -> cluster.join(directory("loadbalance=randon", a))).isInstanceOf(IllegalArgumentException.class);
        assertThat(lookups).hasValue(2);
    }

    @Test
    void joinedInvoker_reportsTheDirectorysCurrentUrlAndInterface() {
        DynamicDirectory<Greeting> directory = directory("", a);
        Invoker<Greeting> invoker = join(directory);

        URL changed = consumer("proxy=jdk");
        directory.setUrl(changed);

        assertThat(invoker.getUrl()).isSameAs(changed);
        assertThat(invoker.getInterface()).isEqualTo(Greeting.class);
        assertThat(invoker.isAvailable()).isTrue();
    }

    @Test
    void urlChange_isPickedUpByTheNextCall() {
        DynamicDirectory<Greeting> directory = directory("retries=0", a, b, c);
        Invoker<Greeting> invoker = join(directory);
        a.answering(Reply.networkError());
        b.answering(Reply.networkError());
        assertThatThrownBy(() -> invoker.invoke(hello())).hasMessageContaining("after 1 attempt");

        directory.setUrl(consumer("retries=2"));

        assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.3");
    }

    @Test
    void destroyedInvoker_refusesCalls_andDestroysItsDirectory() {
        DynamicDirectory<Greeting> directory = directory("", a);
        Invoker<Greeting> invoker = join(directory);

        invoker.destroy();
        invoker.destroy();

        assertThat(invoker.isAvailable()).isFalse();
        assertThat(directory.isDestroyed()).isTrue();
        assertThat(a.isDestroyed()).isFalse();
        assertThatThrownBy(() -> invoker.invoke(hello()))
                .isInstanceOf(RpcException.class)
                .hasMessage("Cluster invoker of service dev.weft.rpc.cluster.Greeting is destroyed; refusing call of method hello"
                        + " (consumer: consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting)");
    }

    /** Cycles through the list: a deterministic stand-in for a balancer that spreads calls. */
    static final class RotatingLoadBalance implements LoadBalance {
        private final AtomicInteger next = new AtomicInteger();

        @Override
        public <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) {
            return invokers.get(Math.floorMod(next.getAndIncrement(), invokers.size()));
        }
    }
}
