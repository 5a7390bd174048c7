package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The outcome of each strategy as a caller sees it, through {@code Cluster.join} on a director:
 * which providers are called in which order, how many attempts, and the exact error texts.
 */
class ClusterOutcomeMessagesTest extends FakeServiceClusterTest {


    @SafeVarargs
    private Invoker<FakeService> join(String cluster, String query, FakeProvider<FakeService>... providers) {
        DynamicDirectory<FakeService> directory = new DynamicDirectory<>(FakeService.class, consumer(query));
        List<Invoker<FakeService>> members = new ArrayList<>();
        for (FakeProvider<FakeService> provider : providers) {
            members.add(provider);
        }
        directory.setInvokers(members);
        return director.getExtensionLoader(Cluster.class).getExtension(cluster).join(directory);
    }

    // ------------------------------------------------------------------ failover

    @Test
    void failover_allAttemptsFail_messageCountsAttemptsAndProvidersTried_keepingTheLastCode() {
        FakeProvider<FakeService> a = provider("a").failingWith(Reply.networkError());
        FakeProvider<FakeService> b = provider("b").failingWith(Reply.networkError());
        FakeProvider<FakeService> c = provider("c").failingWith(Reply.timeout());
        String query = "loadbalance=roundrobin&retries=2";
        Invoker<FakeService> invoker = join("failover", query, a, b, c);
        assertThatThrownBy(() -> invoker.invoke(call))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue())
                .hasMessage("Failed to invoke method call of service " + SERVICE + " after 3 attempts (retries=2); providers tried 3/3"
                        + " [a:20880, b:20880, c:20880] (consumer: " + consumer(query) + "); last cause: RpcException: scripted timeout"
                        + " at fake provider c (method call)");
        assertThat(log.providers()).containsExactly("a", "b", "c");
    }

    @Test
    void failover_zeroRetries_isOneAttempt_inTheSingular() {
        FakeProvider<FakeService> a = provider("a").failingWith(Reply.networkError());
        FakeProvider<FakeService> b = provider("b");
        Invoker<FakeService> invoker = join("failover", "loadbalance=roundrobin&retries=0", a, b);
        assertThatThrownBy(() -> invoker.invoke(call))
                .hasMessageStartingWith("Failed to invoke method call of service " + SERVICE + " after 1 attempt (retries=0);"
                        + " providers tried 1/2 [a:20880] (consumer: ");
        assertThat(b.calls()).isZero();
    }

    @Test
    void failover_moreRetriesThanProviders_rotatesLeastRecentlyTriedFirst() {
        FakeProvider<FakeService> a = provider("a").failingWith(Reply.networkError());
        FakeProvider<FakeService> b = provider("b").failingWith(Reply.networkError());
        Invoker<FakeService> invoker = join("failover", "loadbalance=roundrobin&retries=4", a, b);
        assertThatThrownBy(() -> invoker.invoke(call)).hasMessageContaining("after 5 attempts (retries=4); providers tried 2/2");
        assertThat(log.providers()).containsExactly("a", "b", "a", "b", "a");
    }

    @Test
    void failover_notProcessed_earnsExactlyOneExtraAttempt() {
        FakeProvider<FakeService> a = provider("a").failingWith(Reply.notProcessed());
        FakeProvider<FakeService> b = provider("b").failingWith(Reply.notProcessed());
        FakeProvider<FakeService> c = provider("c");
        Invoker<FakeService> invoker = join("failover", "loadbalance=roundrobin&retries=0", a, b, c);
        assertThatThrownBy(() -> invoker.invoke(call))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                .hasMessageContaining("after 2 attempts (retries=0); providers tried 2/3 [a:20880, b:20880]");
        assertThat(c.calls()).isZero();

        FakeProvider<FakeService> d = provider("d").thenFail(Reply.notProcessed());
        FakeProvider<FakeService> e = provider("e");
        assertThat(join("failover", "loadbalance=roundrobin&retries=0", d, e).invoke(call).getValue()).isEqualTo("e");
    }

    @Test
    void failover_aRetryThatSucceeds_returnsItsAnswer() {
        FakeProvider<FakeService> a = provider("a").failingWith(Reply.networkError());
        FakeProvider<FakeService> b = provider("b").answering("from b");
        Result result = join("failover", "loadbalance=roundrobin&retries=1", a, b).invoke(call);
        assertThat(result.getValue()).isEqualTo("from b");
        assertThat(log.providers()).containsExactly("a", "b");
    }

    // ------------------------------------------------------------------ one-attempt strategies

    @Test
    void failfast_notProcessed_isCalledOnceMoreElsewhere_butOnlyOnce() {
        FakeProvider<FakeService> a = provider("a").failingWith(Reply.notProcessed());
        FakeProvider<FakeService> b = provider("b").answering("b answered");
        assertThat(join("failfast", "loadbalance=roundrobin", a, b).invoke(call).getValue()).isEqualTo("b answered");

        FakeProvider<FakeService> c = provider("c").failingWith(Reply.notProcessed());
        FakeProvider<FakeService> d = provider("d").failingWith(Reply.notProcessed());
        FakeProvider<FakeService> e = provider("e");
        log.clear();
        assertThatThrownBy(() -> join("failfast", "loadbalance=roundrobin", c, d, e).invoke(call)).isInstanceOf(RpcException.class);
        assertThat(log.providers()).containsExactly("c", "d");

        FakeProvider<FakeService> alone = provider("alone").failingWith(Reply.notProcessed());
        log.clear();
        assertThatThrownBy(() -> join("failfast", "", alone).invoke(call))
                .isInstanceOfSatisfying(RpcException.class, ex -> assertThat(ex.isNotProcessed()).isTrue());
        assertThat(log.providers()).containsExactly("alone");
    }

    @Test
    void emptyDirectory_failsWithNoInvokerAvailable_namingMethodServiceAndConsumer() {
        Invoker<FakeService> invoker = join("failfast", "retries=1");
        assertThatThrownBy(() -> invoker.invoke(call))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.getCode()).isEqualTo(RpcException.NO_INVOKER_AVAILABLE))
                .hasMessage("No provider available for method call of service " + SERVICE + " (consumer: " + consumer("retries=1")
                        + "; the directory is empty or every provider is unavailable)");
        assertThat(invoker.isAvailable()).isFalse();
    }

    @Test
    void destroyedInvoker_refusesCalls_namingServiceMethodAndConsumer() {
        FakeProvider<FakeService> a = provider("a");
        Invoker<FakeService> invoker = join("failover", "x=1", a);
        assertThat(invoker.isAvailable()).isTrue();
        invoker.destroy();
        invoker.destroy();
        assertThat(invoker.isAvailable()).isFalse();
        assertThatThrownBy(() -> invoker.invoke(call))
                .isInstanceOf(RpcException.class)
                .hasMessage("Cluster invoker of service " + SERVICE + " is destroyed; refusing call of method call (consumer: "
                        + consumer("x=1") + ")");
        assertThat(a.calls()).isZero();
        assertThat(a.isDestroyed()).isFalse();
    }

    @Test
    void available_callsTheFirstAvailableProvider_inDirectoryOrder_withoutABalancer() {
        FakeProvider<FakeService> a = provider("a").available(false);
        FakeProvider<FakeService> b = provider("b");
        FakeProvider<FakeService> c = provider("c");
        Invoker<FakeService> invoker = join("available", "cluster.availablecheck=false", a, b, c);
        assertThat(invoker.invoke(call).getValue()).isEqualTo("b");
        assertThat(invoker.invoke(call).getValue()).isEqualTo("b");
        b.available(false);
        assertThat(invoker.invoke(call).getValue()).isEqualTo("c");
        c.available(false);
        assertThatThrownBy(() -> invoker.invoke(call))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.getCode()).isEqualTo(RpcException.NO_INVOKER_AVAILABLE))
                .hasMessage("No available provider for method call of service " + SERVICE + ": none of the 3 providers is available"
                        + " (consumer: " + consumer("cluster.availablecheck=false") + ")");
    }

    // ------------------------------------------------------------------ broadcast

    @Test
    void broadcast_stopsExactlyWhenFailuresReachThePercentOfProviders() {
        FakeProvider<FakeService> a = provider("a").failingWith(Reply.networkError());
        FakeProvider<FakeService> b = provider("b");
        FakeProvider<FakeService> c = provider("c").failingWith(Reply.timeout());
        FakeProvider<FakeService> d = provider("d");
        String query = "broadcast.fail.percent=50";
        Invoker<FakeService> invoker = join("broadcast", query, a, b, c, d);
        assertThatThrownBy(() -> invoker.invoke(call))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue())
                .hasMessage("Broadcast of method call of service " + SERVICE + " failed on 2/4 providers (called 3,"
                        + " broadcast.fail.percent=50, consumer: " + consumer(query) + "); last failure on provider c:20880:"
                        + " RpcException: scripted timeout at fake provider c (method call)");
        assertThat(log.providers()).containsExactly("a", "b", "c");
    }

    @Test
    void broadcast_lastProviderFailing_isReported_andAllSucceeding_returnsTheLastResult() {
        FakeProvider<FakeService> a = provider("a");
        FakeProvider<FakeService> b = provider("b").failingWith(Reply.networkError());
        assertThatThrownBy(() -> join("broadcast", "broadcast.fail.percent=50", a, b).invoke(call))
                .hasMessageContaining("failed on 1/2 providers (called 2,");
        assertThat(join("broadcast", "", provider("x"), provider("y")).invoke(call).getValue()).isEqualTo("y");
    }

    @Test
    void broadcast_aFailedResultFollowedByASuccess_isStillReturned() {
        IllegalStateException serviceError = new IllegalStateException("refused by a");
        FakeProvider<FakeService> a = provider("a").answering(Reply.serviceException(serviceError));
        FakeProvider<FakeService> b = provider("b");
        Result result = join("broadcast", "", a, b).invoke(call);
        assertThat(result.hasException()).isTrue();
        assertThat(result.getException()).isSameAs(serviceError);
    }

    @Test
    void broadcast_aThrownFailureAfterAFailedResult_isWhatIsThrown() {
        FakeProvider<FakeService> a = provider("a").answering(Reply.serviceException(new IllegalStateException("a")));
        FakeProvider<FakeService> b = provider("b").failingWith(Reply.networkError());
        FakeProvider<FakeService> c = provider("c");
        assertThatThrownBy(() -> join("broadcast", "", a, b, c).invoke(call))
                .hasMessageContaining("failed on 2/3 providers (called 3,")
                .hasMessageContaining("last failure on provider b:20880");
        IllegalStateException last = new IllegalStateException("c");
        FakeProvider<FakeService> d = provider("d").failingWith(Reply.networkError());
        FakeProvider<FakeService> e = provider("e").answering(Reply.serviceException(last));
        assertThat(join("broadcast", "", d, e).invoke(call).getException()).isSameAs(last);
    }
}
