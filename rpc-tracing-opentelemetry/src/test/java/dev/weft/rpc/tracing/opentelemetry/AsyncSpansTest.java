package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.ExtensionDirector;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The trace across async hops: an attempt started on another thread than the caller's still
 * belongs to its call, and spans end when the call's result ends, not when {@code invoke} returns.
 */
class AsyncSpansTest {

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    private final ExtensionDirector director = new ExtensionDirector(AsyncSpansTest.class.getClassLoader());
    private final ExecutorService otherThread = Executors.newSingleThreadExecutor();
    private final Pending provider = new Pending();

    @AfterEach
    void close() {
        otherThread.shutdownNow();
        director.close();
        openTelemetry.close();
    }

    @Test
    void anAttemptStartedOnAnotherThread_isAChildOfItsCall_andTheCallEndsWithItsResult() throws Exception {
        WeftTelemetry.create(openTelemetry).install(director);
        Invoker<Shop> attempts = FilterChain.wrap(provider, List.of(filter(AttemptTracingFilter.NAME)));
        Invoker<Shop> calls = FilterChain.wrap(new HandsOff(attempts, otherThread), List.of(filter(CallTracingFilter.NAME)));
        Span app = openTelemetry.getTracer("app").spanBuilder("checkout").startSpan();

        Result result;
        try (Scope ignored = app.makeCurrent()) {
            result = calls.invoke(new RpcInvocation("greet", new Class<?>[]{String.class}, new Object[]{"ada"}));
        } finally {
            app.end();
        }
        assertThat(result.isDone()).isFalse();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (provider.results.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(exporter.getFinishedSpanItems()).as("only the app's span has ended").hasSize(1);
        provider.results.get(0).complete(RpcResult.of("hi"));

        assertThat(result.isDone()).isTrue();
        List<SpanData> spans = exporter.getFinishedSpanItems();
        SpanData attempt = spans.stream().filter(s -> s.getAttributes().get(AttributeKey.longKey("weft.attempt")) != null)
                .findFirst().orElseThrow();
        SpanData call = spans.stream().filter(s -> s.getAttributes().get(AttributeKey.booleanKey("weft.mocked")) != null)
                .findFirst().orElseThrow();
        assertThat(call.getParentSpanId()).isEqualTo(app.getSpanContext().getSpanId());
        assertThat(attempt.getParentSpanId()).isEqualTo(call.getSpanId());
        assertThat(attempt.getAttributes().get(AttributeKey.longKey("weft.attempt"))).isEqualTo(1L);
        assertThat(call.getEndEpochNanos()).isGreaterThanOrEqualTo(attempt.getEndEpochNanos());
        assertThat(provider.invocations.get(0).getAttachment("traceparent"))
                .as("the provider is sent the attempt's context").contains(attempt.getSpanId());
    }

    @Test
    void anAttemptStartedInsideAnotherCall_isAChildOfItsOwnCall() {
        WeftTelemetry.create(openTelemetry).install(director);
        Invoker<Shop> attempts = FilterChain.wrap(provider, List.of(filter(AttemptTracingFilter.NAME)));
        Invoker<Shop> calls = FilterChain.wrap(new Late(attempts), List.of(filter(CallTracingFilter.NAME)));

        Span ada = openTelemetry.getTracer("app").spanBuilder("ada").startSpan();
        Span bob = openTelemetry.getTracer("app").spanBuilder("bob").startSpan();
        Result first;
        Result second;
        try (Scope ignored = ada.makeCurrent()) {
            first = calls.invoke(new RpcInvocation("greet", new Class<?>[]{String.class}, new Object[]{"ada"}));
        }
        try (Scope ignored = bob.makeCurrent()) {
            second = calls.invoke(new RpcInvocation("greet", new Class<?>[]{String.class}, new Object[]{"bob"}));
        }
        provider.results.forEach(pending -> pending.complete(RpcResult.of("hi")));

        assertThat(first.isDone()).isTrue();
        assertThat(second.isDone()).isTrue();
        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertThat(provider.invocations).extracting(i -> i.getArguments()[0]).containsExactly("ada", "bob");
        for (int i = 0; i < 2; i++) {
            Span app = i == 0 ? ada : bob;
            String traceparent = provider.invocations.get(i).getAttachment("traceparent");
            SpanData call = spans.stream().filter(s -> s.getParentSpanId().equals(app.getSpanContext().getSpanId()))
                    .findFirst().orElseThrow();
            SpanData attempt = spans.stream().filter(s -> traceparent.contains(s.getSpanId())).findFirst().orElseThrow();
            assertThat(attempt.getParentSpanId()).as("the parent of the attempt of call %d", i + 1).isEqualTo(call.getSpanId());
            assertThat(attempt.getTraceId()).isEqualTo(app.getSpanContext().getTraceId());
        }
        ada.end();
        bob.end();
    }

    private Filter filter(String name) {
        return director.getExtensionLoader(Filter.class).getExtension(name);
    }

    /** A stand-in for the cluster: starts attempt 1 on another thread and follows its result. */
    private static final class HandsOff extends Pending {
        private final Invoker<Shop> attempts;
        private final ExecutorService thread;

        HandsOff(Invoker<Shop> attempts, ExecutorService thread) {
            this.attempts = attempts;
            this.thread = thread;
        }

        @Override
        public Result invoke(Invocation invocation) {
            AsyncResult result = AsyncResult.pending();
            thread.execute(() -> {
                RpcInvocation attempt = (RpcInvocation) invocation;
                attempt.setCallOptions(CallOptions.DEFAULT.withAttempt(1));
                result.follow(attempts.invoke(attempt));
            });
            return result;
        }
    }

    /**
     * A stand-in for the cluster: keeps the first call pending, and starts its attempt 1 on the
     * second call's thread, inside the second call, just before the second call's own.
     */
    private static final class Late extends Pending {
        private final Invoker<Shop> attempts;
        private RpcInvocation waiting;
        private AsyncResult waitingResult;

        Late(Invoker<Shop> attempts) {
            this.attempts = attempts;
        }

        @Override
        public Result invoke(Invocation invocation) {
            RpcInvocation call = (RpcInvocation) invocation;
            call.setCallOptions(CallOptions.DEFAULT.withAttempt(1));
            if (waiting == null) {
                waiting = call;
                waitingResult = AsyncResult.pending();
                return waitingResult;
            }
            waitingResult.follow(attempts.invoke(waiting));
            return attempts.invoke(call);
        }
    }

    /** A {@link Shop} provider whose calls stay pending until the test ends them. */
    private static class Pending implements Invoker<Shop> {
        final List<AsyncResult> results = new CopyOnWriteArrayList<>();
        final List<Invocation> invocations = new CopyOnWriteArrayList<>();

        @Override
        public Class<Shop> getInterface() {
            return Shop.class;
        }

        @Override
        public Result invoke(Invocation invocation) {
            AsyncResult result = AsyncResult.pending();
            invocations.add(invocation);
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
