package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.bootstrap.Weft;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sampling: what a sampler is shown when it decides on a Weft span, what is sent on when it drops
 * one, and that a span recorded under a parent that was not sampled still has every attribute. A
 * consumer and a provider in two {@code Weft}s over {@code weft} on loopback, tracing with one SDK
 * whose sampler records each decision it is asked for.
 */
class SamplingSpansTest {

    private static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("rpc.system");
    private static final AttributeKey<String> SERVICE = AttributeKey.stringKey("rpc.service");
    private static final AttributeKey<String> METHOD = AttributeKey.stringKey("rpc.method");
    private static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    private static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    private static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("weft.attempt");
    private static final AttributeKey<Boolean> MOCKED = AttributeKey.booleanKey("weft.mocked");
    /** A caller's span that was not sampled, as a caller upstream that dropped its trace sends it. */
    private static final SpanContext UNSAMPLED = SpanContext.create("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331",
            TraceFlags.getDefault(), TraceState.getDefault());

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    @Test
    void aSampler_seesTheRpcAttributes_ofEachSpanItDecides() {
        Decisions decisions = new Decisions(Sampler.alwaysOn());
        Shop shop = consumerOf(exportedShop(decisions), decisions);

        assertThat(shop.greet("ada")).isEqualTo("a:ada");

        awaitSpans(3);
        assertThat(decisions.made).hasSize(3);
        for (Decision decision : decisions.made) {
            assertThat(decision.name).isEqualTo(Shop.class.getName() + "/greet");
            assertThat(decision.attributes.get(SYSTEM)).isEqualTo("weft");
            assertThat(decision.attributes.get(SERVICE)).isEqualTo(Shop.class.getName());
            assertThat(decision.attributes.get(METHOD)).isEqualTo("greet");
        }
        Decision attempt = decisions.made.stream().filter(d -> d.attributes.get(ATTEMPT) != null).findFirst().orElseThrow();
        assertThat(attempt.attributes.get(ATTEMPT)).isEqualTo(1L);
        assertThat(attempt.attributes.get(SERVER_ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(attempt.attributes.get(SERVER_PORT)).isPositive();
        assertThat(attempt.parent.isRemote()).as("the attempt's parent is its call's span, in this process").isFalse();
    }

    @Test
    void underACallerThatDroppedItsTrace_aParentBasedSamplerRecordsNothing_andTheProviderIsToldSo() {
        Decisions decisions = new Decisions(Sampler.parentBased(Sampler.alwaysOn()));
        Shop shop = consumerOf(exportedShop(decisions), decisions);

        try (Scope ignored = Context.root().with(Span.wrap(UNSAMPLED)).makeCurrent()) {
            assertThat(shop.greet("ada")).isEqualTo("a:ada");
        }

        awaitDecisions(decisions, 3);
        assertThat(decisions.made).extracting(d -> d.kind).containsExactlyInAnyOrder(SpanKind.CLIENT, SpanKind.CLIENT, SpanKind.SERVER);
        assertThat(decisions.made).allMatch(d -> d.parent.getTraceId().equals(UNSAMPLED.getTraceId()))
                .allMatch(d -> !d.parent.isSampled());
        Decision server = decisions.made.stream().filter(d -> d.kind == SpanKind.SERVER).findFirst().orElseThrow();
        assertThat(server.parent.isRemote()).as("the provider read the caller's choice from the call").isTrue();
        assertThat(exporter.getFinishedSpanItems()).isEmpty();
    }

    @Test
    void aSpanRecordedUnderAParentThatWasNotSampled_stillHasEveryAttribute() {
        Decisions decisions = new Decisions(Sampler.alwaysOn());
        Shop shop = consumerOf(exportedShop(decisions), decisions);

        try (Scope ignored = Context.root().with(Span.wrap(UNSAMPLED)).makeCurrent()) {
            assertThat(shop.greet("ada")).isEqualTo("a:ada");
        }

        List<SpanData> spans = awaitSpans(3);
        assertThat(spans).hasSize(3).allMatch(s -> s.getTraceId().equals(UNSAMPLED.getTraceId()));
        for (SpanData span : spans) {
            assertThat(span.getName()).isEqualTo(Shop.class.getName() + "/greet");
            assertThat(span.getAttributes().get(SYSTEM)).isEqualTo("weft");
            assertThat(span.getAttributes().get(SERVICE)).isEqualTo(Shop.class.getName());
            assertThat(span.getAttributes().get(METHOD)).isEqualTo("greet");
        }
        SpanData call = spans.stream().filter(s -> s.getAttributes().get(MOCKED) != null).findFirst().orElseThrow();
        SpanData attempt = spans.stream().filter(s -> s.getAttributes().get(ATTEMPT) != null).findFirst().orElseThrow();
        SpanData server = spans.stream().filter(s -> s.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
        assertThat(call.getParentSpanId()).isEqualTo(UNSAMPLED.getSpanId());
        assertThat(call.getAttributes().get(MOCKED)).isFalse();
        assertThat(attempt.getParentSpanId()).isEqualTo(call.getSpanId());
        assertThat(attempt.getAttributes().get(ATTEMPT)).isEqualTo(1L);
        assertThat(attempt.getAttributes().get(SERVER_ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(attempt.getAttributes().get(SERVER_PORT)).isPositive();
        assertThat(server.getParentSpanId()).isEqualTo(attempt.getSpanId());
    }

    @Test
    void anAttemptRecordedUnderACallThatWasNot_stillHasEveryAttribute() {
        // drops the call (the child of the caller's span), records everything under it
        Decisions decisions = new Decisions(new Sampler() {
            @Override
            public SamplingResult shouldSample(Context parentContext, String traceId, String name, SpanKind spanKind,
                                               Attributes attributes, List<LinkData> parentLinks) {
                boolean call = Span.fromContext(parentContext).getSpanContext().getSpanId().equals(UNSAMPLED.getSpanId());
                return call ? SamplingResult.drop() : SamplingResult.recordAndSample();
            }

            @Override
            public String getDescription() {
                return "all but the call";
            }
        });
        Shop shop = consumerOf(exportedShop(decisions), decisions);

        try (Scope ignored = Context.root().with(Span.wrap(UNSAMPLED)).makeCurrent()) {
            assertThat(shop.greet("ada")).isEqualTo("a:ada");
        }

        List<SpanData> spans = awaitSpans(2);
        assertThat(spans).hasSize(2).noneMatch(s -> s.getAttributes().get(MOCKED) != null);
        SpanData attempt = spans.stream().filter(s -> s.getKind() == SpanKind.CLIENT).findFirst().orElseThrow();
        SpanData server = spans.stream().filter(s -> s.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
        assertThat(attempt.getAttributes().get(SYSTEM)).isEqualTo("weft");
        assertThat(attempt.getAttributes().get(SERVICE)).isEqualTo(Shop.class.getName());
        assertThat(attempt.getAttributes().get(METHOD)).isEqualTo("greet");
        assertThat(attempt.getAttributes().get(ATTEMPT)).isEqualTo(1L);
        assertThat(attempt.getAttributes().get(SERVER_ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(attempt.getAttributes().get(SERVER_PORT)).isPositive();
        assertThat(server.getParentSpanId()).isEqualTo(attempt.getSpanId());
        assertThat(server.getAttributes().get(METHOD)).isEqualTo("greet");
    }

    private String exportedShop(Decisions decisions) {
        Weft provider = weft(decisions);
        return provider.export(Shop.class, new ShopImpl("a"), "weft://127.0.0.1:0?threads=4").getInvoker().getUrl().getAddress();
    }

    private Shop consumerOf(String address, Decisions decisions) {
        return weft(decisions).refer(Shop.class, "url=weft://" + address + "&timeout=10000");
    }

    private Weft weft(Decisions decisions) {
        OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().setSampler(decisions)
                        .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
        Weft weft = Weft.builder().build();
        closeables.add(openTelemetry);
        closeables.add(weft);
        WeftTelemetry.create(openTelemetry).install(weft.director());
        return weft;
    }

    /** The finished spans once there are {@code count}, waiting up to 5 s (the server's span ends after its answer is sent). */
    private List<SpanData> awaitSpans(int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (exporter.getFinishedSpanItems().size() < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        return exporter.getFinishedSpanItems();
    }

    private static void awaitDecisions(Decisions decisions, int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (decisions.made.size() < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    /** What a sampler was shown for one span. */
    private record Decision(String name, SpanKind kind, SpanContext parent, Attributes attributes) {
    }

    /** A sampler that records every decision it is asked for and lets {@code delegate} take it. */
    private static final class Decisions implements Sampler {
        final List<Decision> made = new CopyOnWriteArrayList<>();
        private final Sampler delegate;

        Decisions(Sampler delegate) {
            this.delegate = delegate;
        }

        @Override
        public SamplingResult shouldSample(Context parentContext, String traceId, String name, SpanKind spanKind,
                                           Attributes attributes, List<LinkData> parentLinks) {
            made.add(new Decision(name, spanKind, Span.fromContext(parentContext).getSpanContext(), attributes));
            return delegate.shouldSample(parentContext, traceId, name, spanKind, attributes, parentLinks);
        }

        @Override
        public String getDescription() {
            return "Decisions{" + delegate.getDescription() + "}";
        }
    }
}
