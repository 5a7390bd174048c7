package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.bootstrap.Weft;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Spans of a consumer and a provider in two {@code Weft}s over {@code weft} on loopback, recorded by
 * the OpenTelemetry SDK's in-memory exporter.
 */
class WeftTelemetryTest {

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    private final Tracer app = openTelemetry.getTracer("test-app");
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
        openTelemetry.close();
    }

    @Test
    void aCall_isAnAttemptSpan_underTheCallersSpan_withTheServerSpanAsItsChild_acrossProcesses() {
        Weft provider = weft(true);
        Weft consumer = weft(true);
        String address = export(provider, new ShopImpl("a"));
        Shop shop = consumer.refer(Shop.class, "url=weft://" + address + "&timeout=10000");

        Span parent = app.spanBuilder("checkout").startSpan();
        try (Scope ignored = parent.makeCurrent()) {
            assertThat(shop.greet("ada")).isEqualTo("a:ada");
        } finally {
            parent.end();
        }

        SpanData server = awaitSpan(s -> s.getKind() == SpanKind.SERVER);
        SpanData call = awaitSpan(WeftTelemetryTest::isCall);
        SpanData attempt = awaitSpan(WeftTelemetryTest::isAttempt);
        assertThat(call.getParentSpanId()).isEqualTo(parent.getSpanContext().getSpanId());
        assertThat(call.getTraceId()).isEqualTo(parent.getSpanContext().getTraceId());
        assertThat(call.getAttributes().get(AttributeKey.booleanKey("weft.mocked"))).isFalse();
        assertThat(attempt.getParentSpanId()).isEqualTo(call.getSpanId());
        assertThat(attempt.getAttributes().get(AttributeKey.longKey("weft.attempt"))).isEqualTo(1L);
        assertThat(server.getParentSpanId()).isEqualTo(attempt.getSpanId());
        assertThat(server.getTraceId()).isEqualTo(attempt.getTraceId());
        assertThat(server.getParentSpanContext().isRemote()).isTrue();

        for (SpanData span : List.of(server, call, attempt)) {
            assertThat(span.getName()).isEqualTo(Shop.class.getName() + "/greet");
            assertThat(span.getAttributes().get(AttributeKey.stringKey("rpc.system"))).isEqualTo("weft");
            assertThat(span.getAttributes().get(AttributeKey.stringKey("rpc.service"))).isEqualTo(Shop.class.getName());
            assertThat(span.getAttributes().get(AttributeKey.stringKey("rpc.method"))).isEqualTo("greet");
            assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        }
        assertThat(attempt.getAttributes().get(AttributeKey.stringKey("server.address"))).isEqualTo("127.0.0.1");
        assertThat(attempt.getAttributes().get(AttributeKey.longKey("server.port")))
                .isEqualTo(Long.parseLong(address.substring(address.indexOf(':') + 1)));
    }

    @Test
    void aBusinessFailure_marksBothSpansError_withTheErrorType() {
        Weft provider = weft(true);
        Weft consumer = weft(true);
        String address = export(provider, new ShopImpl("a"));
        Shop shop = consumer.refer(Shop.class, "url=weft://" + address + "&timeout=10000");

        assertThatThrownBy(() -> shop.fail("ada")).isInstanceOf(IllegalArgumentException.class);

        SpanData server = awaitSpan(s -> s.getKind() == SpanKind.SERVER);
        SpanData call = awaitSpan(WeftTelemetryTest::isCall);
        SpanData attempt = awaitSpan(WeftTelemetryTest::isAttempt);
        for (SpanData span : List.of(server, call, attempt)) {
            assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(span.getAttributes().get(AttributeKey.stringKey("error.type"))).isEqualTo("business");
            assertThat(span.getEvents()).anyMatch(event -> event.getName().equals("exception"));
        }
    }

    @Test
    void failoverAfterATimeout_givesTwoAttemptSpans_onDistinctProviders_underOneParent() {
        Weft slowProvider = weft(false);
        Weft fastProvider = weft(false);
        Weft consumer = weft(true);
        String slow = export(slowProvider, new ShopImpl("slow") {
            @Override
            public String greet(String name) {
                return sleep(2000);
            }
        });
        String fast = export(fastProvider, new ShopImpl("fast"));
        Shop shop = consumer.refer(Shop.class, "url=weft://" + slow + ",weft://" + fast
                + "&greet.timeout=600&retries=1&loadbalance=roundrobin");

        Span parent = app.spanBuilder("checkout").startSpan();
        try (Scope ignored = parent.makeCurrent()) {
            for (int i = 0; i < 2; i++) { // round robin: at least one of the two starts at the slow provider
                assertThat(shop.greet("ada")).isEqualTo("fast:ada");
            }
        } finally {
            parent.end();
        }

        List<SpanData> calls = exporter.getFinishedSpanItems().stream().filter(WeftTelemetryTest::isCall).toList();
        assertThat(calls).hasSize(2).allMatch(s -> s.getParentSpanId().equals(parent.getSpanContext().getSpanId()))
                .allMatch(s -> s.getStatus().getStatusCode() == StatusCode.UNSET);
        List<SpanData> attempts = exporter.getFinishedSpanItems().stream().filter(WeftTelemetryTest::isAttempt).toList();
        assertThat(attempts).allMatch(a -> calls.stream().anyMatch(c -> c.getSpanId().equals(a.getParentSpanId())));
        List<SpanData> timedOut = attempts.stream().filter(s -> s.getStatus().getStatusCode() == StatusCode.ERROR).toList();
        assertThat(timedOut).hasSizeBetween(1, 2).allMatch(s -> "timeout".equals(s.getAttributes().get(AttributeKey.stringKey("error.type"))))
                .allMatch(s -> port(slow) == s.getAttributes().get(AttributeKey.longKey("server.port")))
                .allMatch(s -> s.getAttributes().get(AttributeKey.longKey("weft.attempt")) == 1L);
        List<SpanData> answered = attempts.stream().filter(s -> s.getStatus().getStatusCode() != StatusCode.ERROR).toList();
        assertThat(answered).hasSize(2).allMatch(s -> port(fast) == s.getAttributes().get(AttributeKey.longKey("server.port")));
        for (SpanData retry : answered) {
            boolean afterATimeout = timedOut.stream().anyMatch(t -> t.getParentSpanId().equals(retry.getParentSpanId()));
            assertThat(retry.getAttributes().get(AttributeKey.longKey("weft.attempt"))).isEqualTo(afterATimeout ? 2L : 1L);
        }
    }

    @Test
    void aForcedMock_isACallSpanMarkedMocked_withNoAttempt() {
        Weft provider = weft(true);
        Weft consumer = weft(true);
        String address = export(provider, new ShopImpl("a"));
        Shop shop = consumer.refer(Shop.class, "url=weft://" + address + "&timeout=10000&greet.mock=force:return degraded");

        assertThat(shop.greet("ada")).isEqualTo("degraded");

        SpanData call = awaitSpan(WeftTelemetryTest::isCall);
        assertThat(call.getAttributes().get(AttributeKey.booleanKey("weft.mocked"))).isTrue();
        assertThat(call.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(exporter.getFinishedSpanItems()).noneMatch(WeftTelemetryTest::isAttempt)
                .noneMatch(s -> s.getKind() == SpanKind.SERVER);
    }

    @Test
    void aCallTheProviderMakes_continuesTheTraceOfTheCallItServes() {
        Weft back = weft(true);
        Weft front = weft(true);
        Weft consumer = weft(true);
        String backAddress = export(back, new ShopImpl("back"));
        Shop backShop = front.refer(Shop.class, "url=weft://" + backAddress + "&timeout=10000");
        String frontAddress = export(front, new ShopImpl("front") {
            @Override
            public String greet(String name) {
                return "front+" + backShop.greet(name);
            }
        });
        Shop shop = consumer.refer(Shop.class, "url=weft://" + frontAddress + "&timeout=10000");

        assertThat(shop.greet("ada")).isEqualTo("front+back:ada");

        List<SpanData> spans = awaitSpans(6);
        SpanData first = spans.stream().filter(s -> isCall(s) && !s.getParentSpanContext().isValid()).findFirst().orElseThrow();
        SpanData firstAttempt = child(spans, first, SpanKind.CLIENT);
        SpanData frontServer = child(spans, firstAttempt, SpanKind.SERVER);
        SpanData nestedCall = child(spans, frontServer, SpanKind.CLIENT);
        SpanData nestedAttempt = child(spans, nestedCall, SpanKind.CLIENT);
        SpanData backServer = child(spans, nestedAttempt, SpanKind.SERVER);
        assertThat(List.of(firstAttempt, frontServer, nestedCall, nestedAttempt, backServer))
                .allMatch(s -> s.getTraceId().equals(first.getTraceId()));
        assertThat(isCall(nestedCall)).isTrue();
        assertThat(isAttempt(nestedAttempt)).isTrue();
    }

    @Test
    void notInstalled_recordsNoSpan_andStillCarriesTheCallersContextUnchanged() {
        Weft provider = weft(false);
        Weft consumer = weft(false);
        String address = export(provider, new ShopImpl("a"));
        Shop shop = consumer.refer(Shop.class, "url=weft://" + address + "&timeout=10000");

        assertThat(shop.greet("ada")).isEqualTo("a:ada");

        assertThat(exporter.getFinishedSpanItems()).isEmpty();
    }

    private static boolean isCall(SpanData span) {
        return span.getKind() == SpanKind.CLIENT && span.getAttributes().get(AttributeKey.booleanKey("weft.mocked")) != null;
    }

    private static boolean isAttempt(SpanData span) {
        return span.getKind() == SpanKind.CLIENT && span.getAttributes().get(AttributeKey.longKey("weft.attempt")) != null;
    }

    private static SpanData child(List<SpanData> spans, SpanData parent, SpanKind kind) {
        return spans.stream().filter(s -> s.getKind() == kind && s.getParentSpanId().equals(parent.getSpanId()))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " child of " + parent + " in " + spans));
    }

    private static long port(String address) {
        return Long.parseLong(address.substring(address.indexOf(':') + 1));
    }

    /** The first finished span matching {@code match}, waiting up to 5 s (the server's span ends after its answer is sent). */
    private SpanData awaitSpan(Predicate<SpanData> match) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            for (SpanData span : exporter.getFinishedSpanItems()) {
                if (match.test(span)) {
                    return span;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no matching span in " + exporter.getFinishedSpanItems());
            }
            Thread.onSpinWait();
        }
    }

    private List<SpanData> awaitSpans(int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (exporter.getFinishedSpanItems().size() < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        return exporter.getFinishedSpanItems();
    }

    private Weft weft(boolean traced) {
        Weft weft = Weft.builder().build();
        closeables.add(weft);
        if (traced) {
            WeftTelemetry.create(openTelemetry).install(weft.director());
        }
        return weft;
    }

    private static String export(Weft weft, Shop shop) {
        return weft.export(Shop.class, shop, "weft://127.0.0.1:0?threads=8").getInvoker().getUrl().getAddress();
    }
}
