package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.common.RpcException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The server and attempt meters of a consumer and a provider in two {@code Weft}s over {@code weft} on loopback. */
class WeftMetricsTest {

    private final LoopbackShops wefts = new LoopbackShops();

    @AfterEach
    void close() throws Exception {
        wefts.close();
    }

    @Test
    void serverAndAttemptTimers_countEachCall_byMethodAndErrorType() {
        Weft provider = wefts.weft();
        Weft consumer = wefts.weft();
        SimpleMeterRegistry providerMeters = new SimpleMeterRegistry();
        SimpleMeterRegistry consumerMeters = new SimpleMeterRegistry();
        new WeftMetrics(provider.director()).bindTo(providerMeters);
        new WeftMetrics(consumer.director()).bindTo(consumerMeters);
        String address = wefts.export(provider, "a", "");
        Shop shop = consumer.refer(Shop.class, "url=weft://" + address + "&timeout=2000&retries=0");

        for (int i = 0; i < 3; i++) {
            assertThat(shop.greet("ada")).isEqualTo("a:ada");
        }
        assertThatThrownBy(() -> shop.fail("ada")).isInstanceOf(IllegalArgumentException.class);

        assertThat(timer(providerMeters, Meters.SERVER_CALL_DURATION, "greet", "none").count()).isEqualTo(3);
        assertThat(timer(providerMeters, Meters.SERVER_CALL_DURATION, "fail", "business").count()).isEqualTo(1);
        Timer attempts = consumerMeters.get(Meters.CLIENT_ATTEMPT_DURATION)
                .tags(Meters.SYSTEM, "weft", Meters.SERVICE, Shop.class.getName(), Meters.METHOD, "greet",
                        Meters.ERROR_TYPE, "none", Meters.SERVER_ADDRESS, address)
                .timer();
        assertThat(attempts.count()).isEqualTo(3);
        assertThat(attempts.totalTime(TimeUnit.NANOSECONDS)).isPositive();
        assertThat(timer(consumerMeters, Meters.CLIENT_ATTEMPT_DURATION, "fail", "business").count()).isEqualTo(1);
        // Each side sees only its own role.
        assertThat(consumerMeters.find(Meters.SERVER_CALL_DURATION).timers()).isEmpty();
        assertThat(providerMeters.find(Meters.CLIENT_ATTEMPT_DURATION).timers()).isEmpty();
    }

    @Test
    void failover_afterATimeout_showsOneTimedOutAttemptAndOneGoodAttempt_onDistinctProviders() throws Exception {
        LoopbackShops.SlowAndFast providers = wefts.slowAndFast();
        String slow = providers.slow();
        String fast = providers.fast();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Weft consumer = wefts.metered(meters);
        LoopbackShops.connect(consumer, List.of(slow, fast)); // both available before the timed calls, which round robin over them
        Shop shop = consumer.refer(Shop.class, providers.urls() + "&hold.timeout=600&retries=1&loadbalance=roundrobin");
        int calls = 4;
        for (int i = 0; i < calls; i++) {
            assertThat(shop.hold("ada")).isEqualTo("fast:ada");
        }

        long timedOut = attemptsAt(meters, slow, "timeout");
        assertThat(attemptsAt(meters, fast, "none")).isEqualTo(calls);
        assertThat(timedOut).isBetween(1L, (long) calls);
        assertThat(attemptsAt(meters, slow, "none")).isZero();
        Timer slowAttempts = meters.get(Meters.CLIENT_ATTEMPT_DURATION).tags(Meters.METHOD, "hold", Meters.SERVER_ADDRESS, slow).timer();
        assertThat(slowAttempts.totalTime(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(500.0 * timedOut);
    }

    @Test
    void callTimer_countsEachCallOnce_whileAttemptsAndRetriesCountEachTry() throws Exception {
        LoopbackShops.SlowAndFast providers = wefts.slowAndFast();
        String slow = providers.slow();
        String fast = providers.fast();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Weft consumer = wefts.metered(meters);
        LoopbackShops.connect(consumer, List.of(slow, fast)); // both available before the timed calls, which round robin over them
        Shop shop = consumer.refer(Shop.class, providers.urls() + "&hold.timeout=600&retries=1&loadbalance=roundrobin");
        int calls = 4;
        for (int i = 0; i < calls; i++) {
            shop.hold("ada");
        }

        Timer callTimer = meters.get(Meters.CLIENT_CALL_DURATION).tags(Meters.METHOD, "hold", Meters.OUTCOME, "ok",
                Meters.ERROR_TYPE, "none").timer();
        assertThat(callTimer.count()).isEqualTo(calls);
        long timedOut = attemptsAt(meters, slow, "timeout");
        assertThat(meters.get(Meters.CLIENT_RETRIES).tags(Meters.METHOD, "hold", Meters.SERVER_ADDRESS, fast).counter().count())
                .as("each timed-out first attempt at the slow provider was retried at the fast one").isEqualTo(timedOut);
        assertThat(meters.find(Meters.CLIENT_RETRIES).tag(Meters.SERVER_ADDRESS, slow).counter()).isNull();
        assertThat(callTimer.totalTime(TimeUnit.MILLISECONDS))
                .as("a call's time includes its timed-out attempt").isGreaterThanOrEqualTo(500.0 * timedOut);
    }

    @Test
    void theMock_isOutcomeMocked_forcedWithoutAttempt_andOnFailureAfterTheFailedAttempt() {
        Weft provider = wefts.weft();
        Weft consumer = wefts.weft();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new WeftMetrics(consumer.director()).bindTo(meters);
        String address = wefts.export(provider, "a", "");
        Shop shop = consumer.refer(Shop.class, "url=weft://" + address + "&timeout=2000&retries=0"
                + "&greet.mock=force:return degraded&hold.timeout=150&hold.mock=fail:return fallback");

        assertThat(shop.greet("ada")).isEqualTo("degraded");
        assertThat(shop.hold("ada")).isEqualTo("fallback");

        assertThat(meters.get(Meters.CLIENT_CALL_DURATION).tags(Meters.METHOD, "greet", Meters.OUTCOME, "mocked",
                Meters.ERROR_TYPE, "none").timer().count()).isEqualTo(1);
        assertThat(meters.find(Meters.CLIENT_ATTEMPT_DURATION).tag(Meters.METHOD, "greet").timers()).isEmpty();
        assertThat(meters.get(Meters.CLIENT_CALL_DURATION).tags(Meters.METHOD, "hold", Meters.OUTCOME, "mocked",
                Meters.ERROR_TYPE, "none").timer().count()).isEqualTo(1);
        assertThat(attemptsAt(meters, address, "timeout")).isEqualTo(1);
        assertThat(meters.find(Meters.CLIENT_CALL_DURATION).tag(Meters.OUTCOME, "ok").timers()).isEmpty();
    }

    @Test
    void aTimeout_isErrorTypeTimeout_onTheCallAndOnItsAttempt() {
        Weft provider = wefts.weft();
        Weft consumer = wefts.weft();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new WeftMetrics(consumer.director()).bindTo(meters);
        String address = wefts.export(provider, "a", "");
        Shop shop = consumer.refer(Shop.class, "url=weft://" + address + "&timeout=150&retries=0");

        assertThatThrownBy(() -> shop.hold("ada")).isInstanceOf(RpcException.class);

        assertThat(meters.get(Meters.CLIENT_CALL_DURATION).tags(Meters.METHOD, "hold", Meters.OUTCOME, "error",
                Meters.ERROR_TYPE, "timeout").timer().count()).isEqualTo(1);
        assertThat(attemptsAt(meters, address, "timeout")).isEqualTo(1);
        assertThat(meters.find(Meters.CLIENT_RETRIES).counters()).isEmpty();
    }

    @Test
    void anAsyncCall_isTimedOnBothSides_untilItsFutureCompletes() throws Exception {
        Weft provider = wefts.weft();
        Weft consumer = wefts.weft();
        SimpleMeterRegistry providerMeters = new SimpleMeterRegistry();
        SimpleMeterRegistry consumerMeters = new SimpleMeterRegistry();
        new WeftMetrics(provider.director()).bindTo(providerMeters);
        new WeftMetrics(consumer.director()).bindTo(consumerMeters);
        String address = wefts.export(provider, "a", "");
        Shop shop = consumer.refer(Shop.class, "url=weft://" + address + "&timeout=10000&retries=0");

        CompletableFuture<String> answer = shop.later("ada");
        Thread.sleep(100);
        assertThat(answer).isNotDone();
        assertThat(consumerMeters.find(Meters.CLIENT_CALL_DURATION).timers()).isEmpty();
        assertThat(providerMeters.find(Meters.SERVER_CALL_DURATION).timers()).isEmpty();
        wefts.shop(0).later.complete("late");

        assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo("late:ada");
        Timer call = consumerMeters.get(Meters.CLIENT_CALL_DURATION).tags(Meters.METHOD, "later", Meters.OUTCOME, "ok").timer();
        assertThat(call.count()).isEqualTo(1);
        assertThat(call.totalTime(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(100.0);
        Timer served = awaitTimer(providerMeters, Meters.SERVER_CALL_DURATION, "later");
        assertThat(served.count()).isEqualTo(1);
        assertThat(served.totalTime(TimeUnit.NANOSECONDS)).as("served inside the call, until the future completed")
                .isPositive().isLessThanOrEqualTo(call.totalTime(TimeUnit.NANOSECONDS));
        assertThat(timer(consumerMeters, Meters.CLIENT_ATTEMPT_DURATION, "later", "none").count()).isEqualTo(1);
    }

    /** The timer of {@code method}, waiting up to 5 s for it (a provider records after its answer is handed to the network). */
    private static Timer awaitTimer(MeterRegistry meters, String name, String method) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        Timer timer;
        while ((timer = meters.find(name).tag(Meters.METHOD, method).timer()) == null && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(timer).as("timer %s of %s", name, method).isNotNull();
        return timer;
    }

    @Test
    void busyRefusals_byTheExecutesLimit_areCountedAndTimed() throws Exception {
        Weft provider = wefts.weft();
        Weft consumer = wefts.weft();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new WeftMetrics(provider.director()).bindTo(meters);
        String address = wefts.export(provider, "a", "&executes=1");
        ShopImpl held = wefts.shop(0);
        Shop shop = consumer.refer(Shop.class, "url=weft://" + address + "&timeout=3000&retries=0&cluster=failfast");
        ExecutorService caller = Executors.newSingleThreadExecutor();
        wefts.closeLater(caller::shutdownNow);

        CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> shop.hold("one"), caller);
        assertThat(held.holding.await(5, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> shop.hold("two")).isInstanceOf(RpcException.class).hasMessageContaining("busy");
        held.release.countDown();
        assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("a:one");

        assertThat(meters.get(Meters.SERVER_BUSY).tag(Meters.METHOD, "hold").counter().count()).isEqualTo(1.0);
        assertThat(timer(meters, Meters.SERVER_CALL_DURATION, "hold", "not_processed").count()).isEqualTo(1);
        assertThat(timer(meters, Meters.SERVER_CALL_DURATION, "hold", "none").count()).isEqualTo(1);
    }

    @Test
    void unbound_measuresNothing_andBindingLater_measuresCallsOfServicesAlreadyWired() {
        Weft provider = wefts.weft();
        Weft consumer = wefts.weft();
        String address = wefts.export(provider, "a", "");
        Shop shop = consumer.refer(Shop.class, "url=weft://" + address + "&timeout=2000");
        shop.greet("before");

        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new WeftMetrics(consumer.director()).bindTo(meters);
        assertThat(meters.getMeters()).as("no call before the bind is measured; only the service's decision counts are read")
                .extracting(meter -> meter.getId().getName())
                .containsOnly(Meters.CLIENT_HEDGES, Meters.CLIENT_HEDGES_WON, Meters.CLIENT_BUDGET_EXHAUSTED,
                        Meters.CLIENT_EJECTIONS, Meters.CLIENT_EJECTED);
        shop.greet("after");

        assertThat(timer(meters, Meters.CLIENT_ATTEMPT_DURATION, "greet", "none").count()).isEqualTo(1);
        assertThat(meters.find(Meters.SERVER_CALL_DURATION).timers())
                .as("the provider's director is not bound").isEmpty();
    }

    @Test
    void bindingTwoRegistries_sendsEveryMeterToBoth() {
        Weft provider = wefts.weft();
        SimpleMeterRegistry first = new SimpleMeterRegistry();
        SimpleMeterRegistry second = new SimpleMeterRegistry();
        WeftMetrics metrics = new WeftMetrics(provider.director());
        metrics.bindTo(first);
        metrics.bindTo(second);
        String address = wefts.export(provider, "a", "");
        Weft consumer = wefts.weft();
        consumer.refer(Shop.class, "url=weft://" + address + "&timeout=2000").greet("ada");

        assertThat(timer(first, Meters.SERVER_CALL_DURATION, "greet", "none").count()).isEqualTo(1);
        assertThat(timer(second, Meters.SERVER_CALL_DURATION, "greet", "none").count()).isEqualTo(1);
    }

    /** Attempts of {@code hold} at {@code address} that ended as {@code errorType}. */
    private static long attemptsAt(MeterRegistry meters, String address, String errorType) {
        Timer timer = meters.find(Meters.CLIENT_ATTEMPT_DURATION)
                .tags(Meters.METHOD, "hold", Meters.SERVER_ADDRESS, address, Meters.ERROR_TYPE, errorType).timer();
        return timer == null ? 0 : timer.count();
    }

    static Timer timer(MeterRegistry meters, String name, String method, String errorType) {
        return meters.get(name).tags(Meters.SYSTEM, "weft", Meters.SERVICE, Shop.class.getName(),
                Meters.METHOD, method, Meters.ERROR_TYPE, errorType).timer();
    }
}
