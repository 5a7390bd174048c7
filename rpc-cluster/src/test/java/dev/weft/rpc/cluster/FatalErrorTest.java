package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.first;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A provider throwing a JVM error (stack overflow, out of memory) reaches the caller as the same
 * object, whatever the strategy: no retry, no wrapping, no empty result, nothing queued.
 */
class FatalErrorTest {

    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");
    private final StackOverflowError overflow = new StackOverflowError("deep recursion in the provider");
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void closeClusters() throws Exception {
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
    }

    private AbstractCluster cluster(String name) {
        switch (name) {
            case "failover":
                return new FailoverCluster();
            case "failfast":
                return new FailfastCluster();
            case "failsafe":
                return new FailsafeCluster();
            case "broadcast":
                return new BroadcastCluster();
            case "available":
                return new AvailableCluster();
            case "failback":
                FailbackCluster failback = new FailbackCluster(new ManualRetryScheduler());
                closeables.add(failback);
                return failback;
            default:
                throw new IllegalArgumentException("strategy: " + name);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"failover", "failfast", "failsafe", "failback", "broadcast", "available"})
    void aProvidersStackOverflow_isRethrownAsIs_andNoOtherProviderIsCalled(String strategy) {
        a.answering((invocation, self) -> {
            throw overflow;
        });
        Invoker<Greeting> invoker = first(cluster(strategy)).join(directory("retries=3", a, b));

        Throwable thrown = catchThrowable(() -> invoker.invoke(hello()));

        assertThat(thrown).isSameAs(overflow);
        assertThat(a.calls()).isEqualTo(1);
        assertThat(b.calls()).as("not retried elsewhere, not broadcast further").isZero();
    }

    @Test
    void failback_aStackOverflow_queuesNoRetry() {
        ManualRetryScheduler scheduler = new ManualRetryScheduler();
        FailbackCluster cluster = first(new FailbackCluster(scheduler));
        closeables.add(cluster);
        a.answering((invocation, self) -> {
            throw overflow;
        });
        DynamicDirectory<Greeting> directory = directory("", a);
        Invoker<Greeting> invoker = cluster.join(directory);

        assertThat(catchThrowable(() -> invoker.invoke(hello()))).isSameAs(overflow);
        assertThat(cluster.pendingRetries(directory)).isZero();
        assertThat(cluster.droppedRetries(directory)).isZero();
        assertThat(scheduler.scheduled()).isZero();
    }

    @Test
    void failover_anErrorOnARetry_isRethrownAsIs_afterTheFirstFailure() {
        a.answering(Reply.networkError());
        b.answering((invocation, self) -> {
            throw overflow;
        });
        Invoker<Greeting> invoker = first(new FailoverCluster()).join(directory("retries=3", a, b));

        assertThat(catchThrowable(() -> invoker.invoke(hello()))).isSameAs(overflow);
        assertThat(a.calls()).isEqualTo(1);
        assertThat(b.calls()).isEqualTo(1);
    }
}
