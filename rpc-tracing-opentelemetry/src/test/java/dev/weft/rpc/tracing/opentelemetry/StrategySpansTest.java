package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.bootstrap.Weft;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The call, attempt and server spans of §14 for every cluster strategy of rpc-cluster, sync and
 * async, answered and failed (a business failure): providers in their own traced {@code Weft}s and a
 * traced consumer over {@code weft} on loopback, recorded by the SDK's in-memory exporter. Each call
 * is one CLIENT span under the caller's span, with a CLIENT child per provider it called (numbered,
 * with that provider's {@code server.address} and {@code server.port}), each the parent of the
 * provider's SERVER span.
 */
class StrategySpansTest {

    private static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("rpc.system");
    private static final AttributeKey<String> SERVICE = AttributeKey.stringKey("rpc.service");
    private static final AttributeKey<String> METHOD = AttributeKey.stringKey("rpc.method");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    private static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    private static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("weft.attempt");
    private static final AttributeKey<Boolean> MOCKED = AttributeKey.booleanKey("weft.mocked");

    /**
     * How many providers each strategy calls per call when both answer at once. {@code forking}
     * has its own test: with answers at once, its second fork may not be needed by the time it starts.
     */
    private static final Map<String, Integer> TARGETS = Map.of("failover", 1, "failfast", 1, "failsafe", 1, "failback", 1,
            "available", 1, "hedging", 1, "broadcast", 2);

    private static final InMemorySpanExporter EXPORTER = InMemorySpanExporter.create();
    private static final OpenTelemetrySdk OPEN_TELEMETRY = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(EXPORTER)).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    private static final List<AutoCloseable> CLOSEABLES = new ArrayList<>();
    private static List<String> addresses;

    @BeforeAll
    static void exportTwoProviders() {
        addresses = List.of(export(new ShopImpl("a")), export(new ShopImpl("b")));
    }

    @AfterAll
    static void close() throws Exception {
        for (int i = CLOSEABLES.size() - 1; i >= 0; i--) {
            CLOSEABLES.get(i).close();
        }
        OPEN_TELEMETRY.close();
    }

    static Stream<Arguments> strategies() {
        return TARGETS.keySet().stream().sorted().flatMap(cluster -> Stream.of(
                Arguments.of(cluster, false, false), Arguments.of(cluster, true, false),
                Arguments.of(cluster, false, true), Arguments.of(cluster, true, true)));
    }

    @ParameterizedTest(name = "{0} async={1} failing={2}")
    @MethodSource("strategies")
    void everyStrategy_tracesTheCall_andAnAttemptPerProviderCalled_eachParentOfItsServerSpan(String cluster, boolean async,
                                                                                            boolean failing) throws Exception {
        Shop shop = tracedShop(addresses, cluster);
        String method = (failing ? "fail" : "greet") + (async ? "Async" : "");

        Span parent = OPEN_TELEMETRY.getTracer("test").spanBuilder("checkout").startSpan();
        Throwable thrown;
        try (Scope ignored = parent.makeCurrent()) {
            thrown = catchThrowable(() -> call(shop, method));
        } finally {
            parent.end();
        }

        assertThat(thrown == null ? null : thrown.getClass()).isEqualTo(failing ? IllegalArgumentException.class : null);
        int targets = TARGETS.get(cluster);
        assertTrace(parent, method, failing, targets, 0);
    }

    @ParameterizedTest(name = "async={0}")
    @ValueSource(booleans = {false, true})
    void forking_tracesAnAttemptPerForkTarget_numberedInTheCall(boolean async) throws Exception {
        HeldShop c = new HeldShop("c");
        HeldShop d = new HeldShop("d");
        Shop shop = tracedShop(List.of(export(c), export(d)), "forking&forks=2");
        String method = async ? "greetAsync" : "greet";

        Span parent = OPEN_TELEMETRY.getTracer("test").spanBuilder("checkout").startSpan();
        CompletableFuture<String> answer;
        try (Scope ignored = parent.makeCurrent()) {
            answer = async ? shop.greetAsync("ada")
                    : CompletableFuture.supplyAsync(Context.current().wrapSupplier(() -> shop.greet("ada")));
        }
        assertThat(c.started.await(5, TimeUnit.SECONDS) && d.started.await(5, TimeUnit.SECONDS)).as("both forks started").isTrue();
        c.answer.complete("c:ada");
        assertThat(answer.get(5, TimeUnit.SECONDS)).isEqualTo("c:ada");
        d.answer.complete("d:ada");
        parent.end();

        assertTrace(parent, method, false, 2, 1);
    }

    /**
     * The call span under {@code parent}, its {@code targets} attempt spans at distinct providers
     * numbered 1 to {@code targets}, and a server span under each, with the attributes of §14;
     * {@code cancelled} of the attempts lost to another and were cancelled (ERROR, {@code cancelled}),
     * and what their providers made of the cancel is not checked.
     */
    private static void assertTrace(Span parent, String method, boolean failing, int targets, int cancelled) {
        String parentId = parent.getSpanContext().getSpanId();
        SpanData call = await(() -> spans(s -> parentId.equals(s.getParentSpanId())), 1).get(0);
        assertThat(call.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(call.getAttributes().get(MOCKED)).isFalse();
        List<SpanData> attempts = await(() -> spans(s -> call.getSpanId().equals(s.getParentSpanId())), targets);
        assertThat(attempts).hasSize(targets).allMatch(s -> s.getKind() == SpanKind.CLIENT)
                .allMatch(s -> "127.0.0.1".equals(s.getAttributes().get(SERVER_ADDRESS)));
        assertThat(attempts).extracting(s -> s.getAttributes().get(ATTEMPT)).containsExactlyInAnyOrderElementsOf(
                Stream.iterate(1L, n -> n + 1).limit(targets).toList());
        assertThat(attempts).extracting(s -> s.getAttributes().get(SERVER_PORT)).doesNotHaveDuplicates().allMatch(port -> port > 0);
        List<SpanData> servers = new ArrayList<>();
        for (SpanData attempt : attempts) {
            servers.addAll(await(() -> spans(s -> attempt.getSpanId().equals(s.getParentSpanId())), 1));
        }
        assertThat(servers).hasSize(targets).allMatch(s -> s.getKind() == SpanKind.SERVER);

        List<SpanData> losers = attempts.stream().filter(s -> "cancelled".equals(s.getAttributes().get(ERROR_TYPE))).toList();
        assertThat(losers).as("attempts cancelled when another answered").hasSize(cancelled)
                .allMatch(s -> s.getStatus().getStatusCode() == StatusCode.ERROR);
        List<SpanData> all = new ArrayList<>(List.of(call));
        all.addAll(attempts);
        all.addAll(servers);
        all.removeAll(losers);
        all.removeIf(s -> losers.stream().anyMatch(loser -> loser.getSpanId().equals(s.getParentSpanId())));
        for (SpanData span : all) {
            assertThat(span.getTraceId()).isEqualTo(parent.getSpanContext().getTraceId());
            assertThat(span.getName()).isEqualTo(Shop.class.getName() + "/" + method);
            assertThat(span.getAttributes().get(SYSTEM)).isEqualTo("weft");
            assertThat(span.getAttributes().get(SERVICE)).isEqualTo(Shop.class.getName());
            assertThat(span.getAttributes().get(METHOD)).isEqualTo(method);
            assertThat(span.getStatus().getStatusCode()).as("%s", span).isEqualTo(failing ? StatusCode.ERROR : StatusCode.UNSET);
            assertThat(span.getAttributes().get(ERROR_TYPE)).isEqualTo(failing ? "business" : null);
        }
    }

    private static List<SpanData> spans(java.util.function.Predicate<SpanData> match) {
        return EXPORTER.getFinishedSpanItems().stream().filter(match).toList();
    }

    /** What {@code spans} gives once it has {@code count} spans or 5 s have passed (a server span ends after its answer is sent). */
    private static List<SpanData> await(Supplier<List<SpanData>> spans, int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        List<SpanData> found = spans.get();
        while (found.size() < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            found = spans.get();
        }
        return found;
    }

    private static Object call(Shop shop, String method) {
        try {
            return switch (method) {
                case "greet" -> shop.greet("ada");
                case "fail" -> shop.fail("ada");
                case "greetAsync" -> shop.greetAsync("ada").join();
                case "failAsync" -> shop.failAsync("ada").join();
                default -> throw new IllegalArgumentException(method);
            };
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /**
     * A traced consumer of {@code targets} joined by {@code cluster}, its connections open: called
     * round robin ({@code sleep(0)}, 10 ms apart, at most 5 s) until each provider has answered.
     */
    private static Shop tracedShop(List<String> targets, String cluster) throws InterruptedException {
        Weft consumer = traced();
        String urls = "url=weft://" + String.join(",weft://", targets) + "&timeout=5000";
        Shop warmUp = consumer.refer(Shop.class, urls + "&loadbalance=roundrobin&retries=0");
        Set<String> answered = new HashSet<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (answered.size() < targets.size() && System.nanoTime() < deadline) {
            answered.add(warmUp.sleep(0));
            Thread.sleep(10);
        }
        assertThat(answered).as("providers reached").hasSize(targets.size());
        return consumer.refer(Shop.class, urls + "&cluster=" + cluster);
    }

    private static Weft traced() {
        Weft weft = Weft.builder().build();
        CLOSEABLES.add(weft);
        WeftTelemetry.create(OPEN_TELEMETRY).install(weft.director());
        return weft;
    }

    private static String export(Shop shop) {
        return traced().export(Shop.class, shop, "weft://127.0.0.1:0?threads=8").getInvoker().getUrl().getAddress();
    }

    /** A shop whose {@code greet} and {@code greetAsync} answer once {@link #answer} is completed (at most 5 s). */
    private static final class HeldShop extends ShopImpl {
        final CountDownLatch started = new CountDownLatch(1);
        final CompletableFuture<String> answer = new CompletableFuture<>();

        HeldShop(String id) {
            super(id);
        }

        @Override
        public String greet(String name) {
            return greetAsync(name).completeOnTimeout("late", 5, TimeUnit.SECONDS).join();
        }

        @Override
        public CompletableFuture<String> greetAsync(String name) {
            started.countDown();
            return answer;
        }
    }
}
