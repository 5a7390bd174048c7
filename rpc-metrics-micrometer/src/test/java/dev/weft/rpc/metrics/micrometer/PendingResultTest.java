package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeTicker;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An asynchronous call is timed until its result ends, not until {@code invoke} returns: exact
 * durations on the director's fake ticker.
 */
class PendingResultTest {

    private final FakeTicker ticker = new FakeTicker();
    private final ExtensionDirector director = new ExtensionDirector(PendingResultTest.class.getClassLoader(), ticker);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final Pending provider = new Pending();

    @AfterEach
    void close() {
        director.close();
    }

    @Test
    void aPendingCall_isTimedWhenItsResultEnds_withTheOutcomeItEndsWith() {
        new WeftMetrics(director).bindTo(meters);
        Invoker<Shop> chain = chain(CallMetricsFilter.NAME);

        Result answered = chain.invoke(invocation("greet"));
        Result failed = chain.invoke(invocation("hold"));
        ticker.advance(Duration.ofMillis(30));
        assertThat(meters.find(Meters.CLIENT_CALL_DURATION).timers()).as("nothing ended yet").isEmpty();

        provider.results.get(0).complete(RpcResult.of("ok"));
        ticker.advance(Duration.ofMillis(20));
        provider.results.get(1).fail(new RpcException(RpcException.TIMEOUT_EXCEPTION, "late"));

        assertThat(answered.isDone()).isTrue();
        Timer ok = meters.get(Meters.CLIENT_CALL_DURATION).tags(Meters.METHOD, "greet", Meters.OUTCOME, "ok").timer();
        assertThat(ok.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(30.0);
        Timer timedOut = meters.get(Meters.CLIENT_CALL_DURATION)
                .tags(Meters.METHOD, "hold", Meters.OUTCOME, "error", Meters.ERROR_TYPE, "timeout").timer();
        assertThat(timedOut.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(50.0);
        assertThat(failed.isDone()).isTrue();
    }

    @Test
    void aMockedAnswer_isOutcomeMocked() {
        new WeftMetrics(director).bindTo(meters);
        Invoker<Shop> chain = chain(CallMetricsFilter.NAME);

        chain.invoke(invocation("greet"));
        provider.results.get(0).complete(RpcResult.mocked("degraded"));

        assertThat(meters.get(Meters.CLIENT_CALL_DURATION).tags(Meters.OUTCOME, "mocked", Meters.ERROR_TYPE, "none")
                .timer().count()).isEqualTo(1);
    }

    @Test
    void unbound_leavesTheResultAsItIs_andRegistersNothing() {
        Invoker<Shop> chain = chain(CallMetricsFilter.NAME);

        Result result = chain.invoke(invocation("greet"));

        assertThat(result.isDone()).isFalse();
        provider.results.get(0).complete(RpcResult.of("ok"));
        assertThat(result.getValue()).isEqualTo("ok");
        assertThat(meters.getMeters()).isEmpty();
    }

    private Invoker<Shop> chain(String filterName) {
        Filter filter = director.getExtensionLoader(Filter.class).getExtension(filterName);
        return FilterChain.wrap(provider, List.of(filter));
    }

    private static Invocation invocation(String method) {
        return new RpcInvocation(method, new Class<?>[]{String.class}, new Object[]{"ada"});
    }

    /** A {@link Shop} whose every call stays pending until the test ends it. */
    private static final class Pending implements Invoker<Shop> {
        final List<AsyncResult> results = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public Class<Shop> getInterface() {
            return Shop.class;
        }

        @Override
        public Result invoke(Invocation invocation) {
            AsyncResult result = AsyncResult.pending();
            results.add(result);
            return result;
        }

        @Override
        public URL getUrl() {
            return URL.valueOf("weft://127.0.0.1:20880/" + Shop.class.getName());
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
