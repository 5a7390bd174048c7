package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.CallStats;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.loadbalance.Picker;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.weft.rpc.cluster.TestClusters.consumer;
import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.first;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static dev.weft.rpc.cluster.TestClusters.using;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Edges of selection and listing a user can see: the balancer's picker serves first attempts,
 * mock calls reach mock providers, a destroyed directory is named as such, plain directories are
 * checked like publishing ones, and failback retries move away from the provider that failed last.
 */
class SelectionAndDirectoryEdgesTest {

    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");

    /** {@code select} takes the first invoker; the picker built per state takes the last. */
    private static final class PickerTakesLast implements LoadBalance {
        @Override
        public <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) {
            return invokers.get(0);
        }

        @Override
        public <T> Picker<T> picker(List<Invoker<T>> invokers, URL url, String methodName, CallStats stats) {
            List<Invoker<T>> copy = List.copyOf(invokers);
            return invocation -> copy.get(copy.size() - 1);
        }
    }

    @Test
    void theFirstAttempt_isChosenByTheBalancersPicker() {
        Invoker<Greeting> invoker = using(new FailfastCluster(), new PickerTakesLast()).join(directory("", a, b));

        assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.2");
        assertThat(a.calls()).isZero();
    }

    @Test
    void aMockCall_reachesTheMockProvider_andANormalCallNever() {
        FakeProvider<Greeting> mock = FakeProvider.at(Greeting.class, URL.valueOf("mock://10.0.0.9/dev.weft.rpc.cluster.Greeting"));
        Invoker<Greeting> invoker = first(new FailoverCluster()).join(directory("", a, mock));
        RpcInvocation mockCall = hello();
        mockCall.setAttachment(AbstractDirectory.NEED_MOCK_ATTACHMENT, "true");

        invoker.invoke(mockCall);
        invoker.invoke(hello());

        assertThat(mock.calls()).isEqualTo(1);
        assertThat(a.calls()).isEqualTo(1);
    }

    @Test
    void aDestroyedDirectory_isNamedInTheError() {
        DynamicDirectory<Greeting> directory = directory("", a);
        Invoker<Greeting> invoker = first(new FailoverCluster()).join(directory);
        directory.destroy();

        RpcException e = catchThrowableOfType(RpcException.class, () -> invoker.invoke(hello()));

        assertThat(e).isNotNull();
        assertThat(e.getCode()).isEqualTo(RpcException.NO_INVOKER_AVAILABLE);
        assertThat(e).hasMessage("Directory of service dev.weft.rpc.cluster.Greeting is destroyed; cannot list providers for"
                + " method hello (consumer: consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting)");
        assertThat(a.calls()).isZero();
    }

    @Test
    void aPlainDirectory_badKeyOfAnotherMethod_isRejectedAtJoin() {
        PlainDirectory plain = new PlainDirectory(consumer("bye.retries=abc"), List.of(a));

        assertThatThrownBy(() -> first(new FailoverCluster()).join(plain))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("bye.retries: abc (expected: an integer) in consumer URL");
    }

    @Test
    void aPlainDirectory_changingToABadKeyOfAnotherMethod_failsTheNextCall() {
        PlainDirectory plain = new PlainDirectory(consumer(""), List.of(a));
        Invoker<Greeting> invoker = first(new FailoverCluster()).join(plain);
        assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.1");

        plain.url = consumer("bye.retries=abc");

        assertThatThrownBy(() -> invoker.invoke(hello()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("bye.retries: abc (expected: an integer) in consumer URL");
        assertThat(a.calls()).isEqualTo(1);
    }

    @Test
    void aPlainDirectory_providerDownWhenListed_isLeftOut_andCalledAgainOnceItIsBack() {
        a.available(false);
        PlainDirectory plain = new PlainDirectory(consumer(""), List.of(a, b));
        Invoker<Greeting> invoker = using(new FailoverCluster(), new FirstLoadBalance()).join(plain);

        assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.2");
        a.available(true);
        assertThat(invoker.invoke(hello()).getValue()).as("recovered: the first again").isEqualTo("10.0.0.1");
        assertThat(a.calls()).isEqualTo(1);
    }

    @Test
    void withoutTheAvailabilityCheck_retriesRotateThroughUnavailableProvidersToo() {
        a.available(false).answering(Reply.networkError());
        b.answering(Reply.networkError());
        Invoker<Greeting> invoker = first(new FailoverCluster()).join(directory("cluster.availablecheck=false&retries=2", a, b));

        assertThat(catchThrowableOfType(RpcException.class, () -> invoker.invoke(hello()))).isNotNull();

        assertThat(a.calls()).as("attempts 1 and 3: least recently tried first").isEqualTo(2);
        assertThat(b.calls()).isEqualTo(1);
    }

    @Test
    void failback_eachRetryAvoidsTheProviderThatFailedLast() {
        ManualRetryScheduler scheduler = new ManualRetryScheduler();
        FailbackCluster cluster = first(new FailbackCluster(scheduler));
        a.then(Reply.networkError());
        b.answering(Reply.networkError());
        DynamicDirectory<Greeting> directory = directory("retries=3", a, b);
        Invoker<Greeting> invoker = cluster.join(directory);

        invoker.invoke(hello());
        assertThat(scheduler.runDue()).as("retry 1 goes to b").isEqualTo(1);
        assertThat(scheduler.runDue()).as("retry 2 goes back to a").isEqualTo(1);

        assertThat(a.calls()).isEqualTo(2);
        assertThat(b.calls()).isEqualTo(1);
        assertThat(cluster.pendingRetries(directory)).isZero();
        cluster.close();
    }

    @Test
    void failback_afterClose_droppedRetriesCountsTheStaleQueuedOnes_withoutAskingForPending() {
        ManualRetryScheduler scheduler = new ManualRetryScheduler();
        FailbackCluster cluster = first(new FailbackCluster(scheduler));
        a.answering(Reply.networkError());
        DynamicDirectory<Greeting> directory = directory("", a);
        Invoker<Greeting> invoker = cluster.join(directory);
        invoker.invoke(hello());

        cluster.close();
        invoker.invoke(hello());

        assertThat(cluster.droppedRetries(directory)).as("the queued one and the new one").isEqualTo(2);
    }

    /** A directory that publishes nothing: read per call. */
    private static final class PlainDirectory implements Directory<Greeting> {
        volatile URL url;
        private final List<Invoker<Greeting>> members;

        PlainDirectory(URL url, List<Invoker<Greeting>> members) {
            this.url = url;
            this.members = List.copyOf(members);
        }

        @Override
        public Class<Greeting> getInterface() {
            return Greeting.class;
        }

        @Override
        public List<Invoker<Greeting>> list(Invocation invocation) {
            return members;
        }

        @Override
        public URL getUrl() {
            return url;
        }

        @Override
        public boolean isAvailable() {
            return true;
        }

        @Override
        public void destroy() {
        }
    }
}
