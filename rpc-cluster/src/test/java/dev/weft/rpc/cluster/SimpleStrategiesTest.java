package dev.weft.rpc.cluster;

import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import org.junit.jupiter.api.Test;

import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.first;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** failfast, failsafe and available. */
class SimpleStrategiesTest {

    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");

    @Test
    void failfast_makesOneAttempt_andNamesTheProvider_keepingTheCode() {
        a.answering(Reply.timeout());
        Invoker<Greeting> invoker = first(new FailfastCluster()).join(directory("retries=5", a, b));

        assertThatThrownBy(() -> invoker.invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.isTimeout()).isTrue();
                    assertThat(e.getCause()).hasMessage("scripted timeout at fake provider 10.0.0.1 (method hello)");
                })
                .hasMessage("Failfast invoke of method hello of service dev.weft.rpc.cluster.Greeting failed on provider 10.0.0.1:20880"
                        + " (consumer: consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting?retries=5):"
                        + " RpcException: scripted timeout at fake provider 10.0.0.1 (method hello)");
        assertThat(a.calls()).isEqualTo(1);
        assertThat(b.calls()).isZero();
    }

    @Test
    void failfast_passesBusinessExceptionsUnchanged() {
        a.answering(Reply.rpcFailure(RpcException.BIZ_EXCEPTION));

        assertThatThrownBy(() -> first(new FailfastCluster()).join(directory("", a)).invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isBiz()).isTrue())
                .hasMessage("scripted business failure at fake provider 10.0.0.1 (method hello)");
    }

    @Test
    void failfast_wrapsUnexpectedExceptionsWithUnknownCode() {
        a.answering(Reply.throwing(new IllegalStateException("codec bug")));

        assertThatThrownBy(() -> first(new FailfastCluster()).join(directory("", a)).invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(RpcException.UNKNOWN_EXCEPTION);
                    assertThat(e.getCause()).isInstanceOf(IllegalStateException.class);
                });
    }

    @Test
    void failsafe_swallowsEveryThrownFailure_returningAnEmptyResult() {
        Invoker<Greeting> invoker = first(new FailsafeCluster()).join(directory("", a));

        a.then(Reply.networkError(), Reply.rpcFailure(RpcException.BIZ_EXCEPTION), Reply.throwing(new IllegalStateException("codec bug")));
        for (int i = 0; i < 3; i++) {
            Result result = invoker.invoke(hello());
            assertThat(result.hasException()).isFalse();
            assertThat(result.getValue()).isNull();
        }
        assertThat(a.calls()).isEqualTo(3);
    }

    @Test
    void failsafe_swallowsAnEmptyDirectory() {
        Result result = first(new FailsafeCluster()).join(directory("")).invoke(hello());

        assertThat(result.getValue()).isNull();
        assertThat(result.hasException()).isFalse();
    }

    @Test
    void failsafe_returnsTheServicesAnswerUnchanged() {
        IllegalArgumentException fromService = new IllegalArgumentException("bad name");
        a.then(Reply.serviceException(fromService));
        Invoker<Greeting> invoker = first(new FailsafeCluster()).join(directory("", a));

        assertThat(invoker.invoke(hello()).getException()).isSameAs(fromService);
        assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.1");
    }

    @Test
    void available_callsTheFirstAvailableInvoker_withoutBalancer() throws Throwable {
        a.available(false);
        FirstLoadBalance balancer = new FirstLoadBalance();
        Invoker<Greeting> invoker = TestClusters.using(new AvailableCluster(), balancer)
                .join(directory("cluster.availablecheck=false", a, b));

        assertThat(invoker.invoke(hello()).recreate()).isEqualTo("10.0.0.2");
        assertThat(a.calls()).isZero();
        assertThat(balancer.selections).hasValue(0);
    }

    @Test
    void available_notProcessed_goesToTheNextAvailableInDirectoryOrder_withoutBalancer() throws Throwable {
        FakeProvider<Greeting> c = FakeProvider.of(Greeting.class, "10.0.0.3");
        FakeProvider<Greeting> d = FakeProvider.of(Greeting.class, "10.0.0.4");
        a.answering(Reply.notProcessed());
        b.available(false);
        FirstLoadBalance balancer = new FirstLoadBalance();
        Invoker<Greeting> invoker = TestClusters.using(new AvailableCluster(), balancer)
                .join(directory("cluster.availablecheck=false", a, b, c, d));

        assertThat(invoker.invoke(hello()).recreate()).as("the standby after the unavailable b").isEqualTo("10.0.0.3");
        assertThat(balancer.selections).hasValue(0);
        assertThat(new int[] {a.calls(), b.calls(), c.calls(), d.calls()}).containsExactly(1, 0, 1, 0);
    }

    @Test
    void available_noneAvailable_isAClearError() {
        a.available(false);
        b.available(false);

        assertThatThrownBy(() -> first(new AvailableCluster()).join(directory("cluster.availablecheck=false", a, b)).invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNoInvokerAvailable()).isTrue())
                .hasMessage("No available provider for method hello of service dev.weft.rpc.cluster.Greeting: none of the 2 providers"
                        + " is available (consumer: consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting?cluster.availablecheck=false)");
        assertThatThrownBy(() -> first(new AvailableCluster()).join(directory("", a, b)).invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNoInvokerAvailable()).isTrue());
    }

    @Test
    void available_reportsFailuresLikeFailfast() {
        a.answering(Reply.networkError());

        assertThatThrownBy(() -> first(new AvailableCluster()).join(directory("", a, b)).invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNetwork()).isTrue())
                .hasMessageStartingWith("Available invoke of method hello of service dev.weft.rpc.cluster.Greeting failed on provider"
                        + " 10.0.0.1:20880");
        assertThat(b.calls()).isZero();
    }
}
