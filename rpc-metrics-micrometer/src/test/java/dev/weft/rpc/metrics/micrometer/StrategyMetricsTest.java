package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.spi.ExtensionDirector;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The call, attempt and retry meters of §14 for every cluster strategy of rpc-cluster, sync and
 * async, answered and failed (a business failure): two providers in their own {@code Weft}s and a
 * consumer over {@code weft} on loopback. A strategy that calls several providers ({@code forking},
 * {@code broadcast}) shows one attempt per provider, each tagged with its {@code server.address},
 * the later ones counted in {@value Meters#CLIENT_RETRIES}; the others one attempt; every call is
 * timed once, with the outcome the caller saw.
 */
class StrategyMetricsTest {

    /**
     * How many providers each strategy calls per call when both answer at once. {@code forking}
     * has its own test: with answers at once, its second fork may not be needed by the time it starts.
     */
    private static final Map<String, Integer> TARGETS = Map.of("failover", 1, "failfast", 1, "failsafe", 1, "failback", 1,
            "available", 1, "hedging", 1, "broadcast", 2);

    private static LoopbackShops wefts;
    private static List<String> addresses;

    @BeforeAll
    static void exportTwoProviders() {
        wefts = new LoopbackShops();
        addresses = List.of(wefts.export(wefts.weft(), "a", ""), wefts.export(wefts.weft(), "b", ""));
    }

    @AfterAll
    static void close() throws Exception {
        wefts.close();
    }

    /** Every strategy rpc-cluster declares (so a new one fails here until it is given its expectation), but forking. */
    static Stream<Arguments> strategies() {
        Set<String> declared;
        try (ExtensionDirector director = new ExtensionDirector(StrategyMetricsTest.class.getClassLoader())) {
            declared = new TreeSet<>(director.getExtensionLoader(Cluster.class).getSupportedExtensions());
        }
        assertThat(declared).as("every strategy of rpc-cluster is measured here or in the forking test")
                .containsExactlyInAnyOrderElementsOf(Stream.concat(TARGETS.keySet().stream(), Stream.of("forking")).toList());
        declared.remove("forking");
        return declared.stream().flatMap(cluster -> Stream.of(
                Arguments.of(cluster, false, false), Arguments.of(cluster, true, false),
                Arguments.of(cluster, false, true), Arguments.of(cluster, true, true)));
    }

    @ParameterizedTest(name = "{0} async={1} failing={2}")
    @MethodSource("strategies")
    void everyStrategy_timesTheCallOnce_andEachAttemptAtItsProvider(String cluster, boolean async, boolean failing)
            throws InterruptedException {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Shop shop = meteredShop(meters, addresses, cluster);
        String method = (failing ? "fail" : "greet") + (async ? "Async" : "");

        Throwable thrown = catchThrowable(() -> call(shop, method));

        assertThat(thrown == null ? null : thrown.getClass()).isEqualTo(failing ? IllegalArgumentException.class : null);
        String errorType = failing ? "business" : "none";
        Timer call = meters.get(Meters.CLIENT_CALL_DURATION).tags(Meters.SYSTEM, "weft", Meters.SERVICE, Shop.class.getName(),
                Meters.METHOD, method, Meters.OUTCOME, failing ? "error" : "ok", Meters.ERROR_TYPE, errorType).timer();
        assertThat(call.count()).isEqualTo(1);
        assertThat(meters.find(Meters.CLIENT_CALL_DURATION).timers()).hasSize(1);

        int targets = TARGETS.get(cluster);
        List<Timer> attempts = awaitAttempts(meters, targets);
        assertThat(attempts).as("one attempt per provider called").hasSize(targets)
                .allSatisfy(attempt -> {
                    assertThat(attempt.count()).isEqualTo(1);
                    assertThat(attempt.getId().getTag(Meters.SYSTEM)).isEqualTo("weft");
                    assertThat(attempt.getId().getTag(Meters.SERVICE)).isEqualTo(Shop.class.getName());
                    assertThat(attempt.getId().getTag(Meters.METHOD)).isEqualTo(method);
                    assertThat(attempt.getId().getTag(Meters.SERVER_ADDRESS)).isIn(addresses);
                });
        assertThat(attempts).extracting(attempt -> attempt.getId().getTag(Meters.SERVER_ADDRESS)).doesNotHaveDuplicates();
        assertThat(attempts).extracting(attempt -> attempt.getId().getTag(Meters.ERROR_TYPE)).containsOnly(errorType);
        assertThat(attempts.stream().mapToDouble(attempt -> attempt.totalTime(TimeUnit.NANOSECONDS)).min().orElseThrow())
                .as("the attempt that answered the call ended within it").isPositive()
                .isLessThanOrEqualTo(call.totalTime(TimeUnit.NANOSECONDS));
        double laterAttempts = meters.find(Meters.CLIENT_RETRIES).tag(Meters.METHOD, method).counters().stream()
                .mapToDouble(Counter::count).sum();
        assertThat(laterAttempts).as("every attempt after a call's first counts in %s", Meters.CLIENT_RETRIES)
                .isEqualTo(targets - 1.0);
    }

    @ParameterizedTest(name = "async={0}")
    @ValueSource(booleans = {false, true})
    void forking_recordsAnAttemptAtEachForkTarget_theLaterOnesCountedAsRetries(boolean async) throws Exception {
        List<String> held = List.of(wefts.export(wefts.weft(), "c", ""), wefts.export(wefts.weft(), "d", ""));
        ShopImpl c = wefts.shop(2 + 2 * forkingRuns);
        ShopImpl d = wefts.shop(3 + 2 * forkingRuns);
        forkingRuns++;
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Shop shop = meteredShop(meters, held, "forking&forks=2");
        String method = async ? "later" : "hold";

        CompletableFuture<String> answer = async ? shop.later("ada") : CompletableFuture.supplyAsync(() -> shop.hold("ada"));
        assertThat(c.holding.await(5, TimeUnit.SECONDS) && d.holding.await(5, TimeUnit.SECONDS)).as("both forks started").isTrue();
        c.later.complete("c");
        c.release.countDown();
        assertThat(answer.get(5, TimeUnit.SECONDS)).isEqualTo("c:ada");
        d.later.complete("d");
        d.release.countDown();

        List<Timer> attempts = awaitAttempts(meters, 2);
        assertThat(attempts).extracting(attempt -> attempt.getId().getTag(Meters.SERVER_ADDRESS))
                .containsExactlyInAnyOrderElementsOf(held);
        assertThat(attempts).allSatisfy(attempt -> {
            assertThat(attempt.count()).isEqualTo(1);
            assertThat(attempt.getId().getTag(Meters.METHOD)).isEqualTo(method);
        });
        assertThat(attempts).as("the winner's attempt, and the loser's, cancelled when the winner answered")
                .extracting(attempt -> attempt.getId().getTag(Meters.SERVER_ADDRESS) + " " + attempt.getId().getTag(Meters.ERROR_TYPE))
                .containsExactlyInAnyOrder(held.get(0) + " none", held.get(1) + " cancelled");
        assertThat(meters.get(Meters.CLIENT_CALL_DURATION).tags(Meters.METHOD, method, Meters.OUTCOME, "ok",
                Meters.ERROR_TYPE, "none").timer().count()).isEqualTo(1);
        assertThat(meters.get(Meters.CLIENT_RETRIES).tag(Meters.METHOD, method).counter().count())
                .as("the second fork is attempt 2 of the call").isEqualTo(1.0);
    }

    /** How many forking tests exported their two shops (each exports its own: their latches serve once). */
    private static int forkingRuns;

    /**
     * A consumer of {@code targets} joined by {@code cluster}, its connections open, measured into
     * {@code meters} from now on.
     */
    private static Shop meteredShop(SimpleMeterRegistry meters, List<String> targets, String cluster) throws InterruptedException {
        Weft consumer = wefts.weft();
        LoopbackShops.connect(consumer, targets);
        new WeftMetrics(consumer.director()).bindTo(meters);
        return consumer.refer(Shop.class, "url=weft://" + String.join(",weft://", targets) + "&cluster=" + cluster
                + "&timeout=5000");
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

    /** The attempt timers, once {@code expected} of them exist or 5 s have passed (a losing fork may end after the call). */
    private static List<Timer> awaitAttempts(MeterRegistry meters, int expected) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        List<Timer> attempts = List.copyOf(meters.find(Meters.CLIENT_ATTEMPT_DURATION).timers());
        while (attempts.stream().mapToLong(Timer::count).sum() < expected && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            attempts = List.copyOf(meters.find(Meters.CLIENT_ATTEMPT_DURATION).timers());
        }
        return attempts;
    }
}
