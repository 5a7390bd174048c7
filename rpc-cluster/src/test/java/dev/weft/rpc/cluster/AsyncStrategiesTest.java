package dev.weft.rpc.cluster;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.Cancellation;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.Results;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.first;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Strategies on calls whose attempts end later (a pending result per attempt, ended by the test):
 * the same path as sync calls, with no thread waiting, attempt numbers in the call options, and
 * no attempt after a cancel.
 */
class AsyncStrategiesTest {

    /** A provider whose every call stays pending until the test ends it; records the attempt numbers it saw. */
    static final class PendingProvider implements Invoker<Greeting> {
        final String address;
        final List<AsyncResult> calls = new ArrayList<>();
        final List<Integer> attempts = new ArrayList<>();

        PendingProvider(String address) {
            this.address = address;
        }

        @Override
        public synchronized Result invoke(Invocation invocation) {
            AsyncResult result = AsyncResult.pending();
            calls.add(result);
            attempts.add(invocation.getCallOptions().attempt());
            return result;
        }

        synchronized AsyncResult last() {
            return calls.get(calls.size() - 1);
        }

        @Override
        public Class<Greeting> getInterface() {
            return Greeting.class;
        }

        @Override
        public URL getUrl() {
            return URL.valueOf("fake://" + address + ":20880/" + Greeting.class.getName());
        }

        @Override
        public boolean isAvailable() {
            return true;
        }

        @Override
        public void destroy() {
        }
    }

    private final PendingProvider a = new PendingProvider("10.0.0.1");
    private final PendingProvider b = new PendingProvider("10.0.0.2");

    @Test
    void failover_startsTheNextAttemptWhenAPendingOneFails_onAnotherProvider_withTheNextAttemptNumber() {
        Invoker<Greeting> invoker = first(new FailoverCluster()).join(directory("retries=2", a, b));

        Result result = invoker.invoke(hello());
        assertThat(result.isDone()).isFalse();
        a.last().fail(new RpcException(RpcException.NETWORK_EXCEPTION, "connection lost"));
        assertThat(b.calls).hasSize(1);
        b.last().complete(RpcResult.of("from b"));

        assertThat(result.getValue()).isEqualTo("from b");
        assertThat(a.attempts).containsExactly(1);
        assertThat(b.attempts).containsExactly(2);
    }

    @Test
    void failover_neverRetriesTheServicesOwnException_evenAnRpcExceptionWithATimeoutCode() {
        Invoker<Greeting> invoker = first(new FailoverCluster()).join(directory("retries=2", a, b));

        Result result = invoker.invoke(hello());
        RpcException fromService = new RpcException(RpcException.TIMEOUT_EXCEPTION, "the service timed out itself");
        a.last().complete(RpcResult.ofException(fromService));

        assertThat(result.getException()).isSameAs(fromService);
        assertThat(b.calls).isEmpty();
    }

    @Test
    void failover_aCancelledCall_startsNoFurtherAttempt() {
        Invoker<Greeting> invoker = first(new FailoverCluster()).join(directory("retries=2", a, b));
        Cancellation cancellation = Cancellation.create();
        RpcInvocation call = hello();
        call.setCallOptions(call.getCallOptions().withCancellation(cancellation));

        Result result = invoker.invoke(call);
        cancellation.cancel();
        a.last().fail(new RpcException(RpcException.CANCELLED, "cancelled by its caller"));

        assertThat(((RpcException) Results.failureOf(result)).isCancelled()).isTrue();
        assertThat(b.calls).isEmpty();
    }

    @Test
    void failover_aSerializationFailure_isNotRetried() {
        Invoker<Greeting> invoker = first(new FailoverCluster()).join(directory("retries=2", a, b));

        Result result = invoker.invoke(hello());
        a.last().fail(new RpcException(RpcException.SERIALIZATION_EXCEPTION, "answer could not be encoded"));

        assertThat(((RpcException) Results.failureOf(result)).isSerialization()).isTrue();
        assertThat(b.calls).isEmpty();
    }

    @Test
    void broadcast_callsTheNextProviderWhenThePreviousAnswered_andEndsWhenAllHave() {
        Invoker<Greeting> invoker = first(new BroadcastCluster()).join(directory("", a, b));

        Result result = invoker.invoke(hello());
        assertThat(b.calls).as("sequential: b waits for a's answer").isEmpty();
        a.last().complete(RpcResult.of("a"));
        assertThat(result.isDone()).isFalse();
        b.last().complete(RpcResult.of("b"));

        assertThat(result.getValue()).isEqualTo("b");
        assertThat(a.attempts).containsExactly(1);
        assertThat(b.attempts).containsExactly(2);
    }

    @Test
    void failsafe_andFailback_answerEmpty_whenThePendingAttemptFails() {
        Result failsafe = first(new FailsafeCluster()).join(directory("", a)).invoke(hello());
        a.last().fail(new RpcException(RpcException.NETWORK_EXCEPTION, "down"));
        assertThat(Results.failureOf(failsafe)).isNull();
        assertThat(failsafe.getValue()).isNull();

        try (FailbackCluster failback = first(new FailbackCluster(new ManualRetryScheduler()))) {
            Result queued = failback.join(directory("", b)).invoke(hello());
            b.last().fail(new RpcException(RpcException.NETWORK_EXCEPTION, "down"));
            assertThat(Results.failureOf(queued)).isNull();
            assertThat(queued.getValue()).isNull();
        }
    }
}
