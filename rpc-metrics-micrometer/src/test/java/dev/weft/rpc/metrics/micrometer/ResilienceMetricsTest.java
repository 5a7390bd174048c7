package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.cluster.ResilienceStats;
import dev.weft.rpc.cluster.ServiceResilience;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.filter.ExecuteLimits;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The resilience decision meters (hedges, the retry budget, outlier ejections, busy answers under
 * {@code executes=auto}) of consumers and providers in separate {@code Weft}s over {@code weft} on loopback.
 */
class ResilienceMetricsTest {

    private final LoopbackShops wefts = new LoopbackShops();

    @AfterEach
    void close() throws Exception {
        wefts.close();
    }

    @Test
    void budgetRefusals_ofRetriesAfterTimeouts_areCountedInBudgetExhausted() {
        Weft consumer = wefts.weft();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new WeftMetrics(consumer.director()).bindTo(meters);
        String a = wefts.export(wefts.weft(), "a", "");
        String b = wefts.export(wefts.weft(), "b", "");
        Shop shop = consumer.refer(Shop.class, "url=weft://" + a + ",weft://" + b
                + "&hold.timeout=100&retries=2&retry-budget=0&retry-budget-min=0&outlier-failures=0");

        int calls = 3;
        for (int i = 0; i < calls; i++) {
            assertThatThrownBy(() -> shop.hold("ada")).isInstanceOf(RpcException.class);
        }

        ServiceResilience resilience = ResilienceStats.of(consumer.director()).service(Shop.class.getName());
        assertThat(resilience.budgetRefusals()).as("each call's first retry refused").isEqualTo(calls);
        assertThat(count(meters, Meters.CLIENT_BUDGET_EXHAUSTED)).isEqualTo(calls);
        assertThat(meters.find(Meters.CLIENT_RETRIES).counters()).as("no retry was made").isEmpty();
        assertThat(count(meters, Meters.CLIENT_HEDGES)).isZero();
        assertThat(count(meters, Meters.CLIENT_EJECTIONS)).isZero();
    }

    @Test
    void hedges_toAFastProvider_areCountedAsSentAndWon() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Weft consumer = wefts.metered(meters);
        Shop shop = consumer.refer(Shop.class, wefts.slowAndFast().urls() + "&cluster=hedging&hedge-delay=50ms&loadbalance=roundrobin&timeout=5000");

        int calls = 4;
        for (int i = 0; i < calls; i++) {
            assertThat(shop.hold("ada")).isEqualTo("fast:ada");
        }

        ServiceResilience resilience = ResilienceStats.of(consumer.director()).service(Shop.class.getName());
        // Round robin sends half the calls to the held provider first: each of them is hedged and the hedge wins.
        assertThat(resilience.hedgesWon()).isGreaterThanOrEqualTo(calls / 2);
        assertThat(count(meters, Meters.CLIENT_HEDGES)).isEqualTo(resilience.hedgesSent())
                .isGreaterThanOrEqualTo(resilience.hedgesWon());
        assertThat(count(meters, Meters.CLIENT_HEDGES_WON)).isEqualTo(resilience.hedgesWon());
        assertThat(count(meters, Meters.CLIENT_BUDGET_EXHAUSTED)).isZero();
    }

    @Test
    void anEjection_afterTwoFailuresInARow_isCountedAndShownAsEjectedNow() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Weft consumer = wefts.metered(meters);
        Shop shop = consumer.refer(Shop.class, wefts.slowAndFast().urls() + "&hold.timeout=150&retries=1&loadbalance=roundrobin&outlier-failures=2&outlier-ejection=60s");
        ServiceResilience resilience = ResilienceStats.of(consumer.director()).service(Shop.class.getName());

        // Round robin reaches the held provider every other call; its second timeout in a row ejects it.
        for (int i = 0; i < 12 && resilience.ejections() == 0; i++) {
            assertThat(shop.hold("ada")).isEqualTo("fast:ada");
        }

        assertThat(resilience.ejections()).isEqualTo(1);
        assertThat(count(meters, Meters.CLIENT_EJECTIONS)).isEqualTo(1.0);
        assertThat(meters.get(Meters.CLIENT_EJECTED).tag(Meters.SERVICE, Shop.class.getName()).gauge().value()).isEqualTo(1.0);
        assertThat(count(meters, Meters.CLIENT_BUDGET_EXHAUSTED)).isZero();
    }

    @Test
    void busyAnswers_ofTheAdaptiveLimit_areCountedInServerBusy() throws Exception {
        Weft provider = wefts.weft();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new WeftMetrics(provider.director()).bindTo(meters);
        String address = wefts.export(provider, "a", "&executes=auto");
        Shop shop = wefts.weft().refer(Shop.class, "url=weft://" + address + "&timeout=10000&retries=0&cluster=failfast");

        // The adaptive limit starts at 20 and cannot move while no call has ended: of 21 calls held open, one is refused.
        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            answers.add(shop.later("call" + i));
        }
        CompletableFuture<String> refused = CompletableFuture.anyOf(answers.toArray(CompletableFuture[]::new))
                .thenApply(String::valueOf).toCompletableFuture();
        assertThatThrownBy(() -> refused.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasMessageContaining("busy");
        wefts.shop(0).later.complete("late");
        long answered = 0;
        for (CompletableFuture<String> answer : answers) {
            try {
                assertThat(answer.get(10, TimeUnit.SECONDS)).startsWith("late:call");
                answered++;
            } catch (ExecutionException e) {
                assertThat(e).hasMessageContaining("busy");
            }
        }

        assertThat(answered).isEqualTo(20);
        assertThat(ExecuteLimits.of(provider.director()).busyAnswers()).isEqualTo(1);
        assertThat(meters.get(Meters.SERVER_BUSY).tag(Meters.METHOD, "later").counter().count()).isEqualTo(1.0);
    }

    @Test
    void servicesReferredBeforeTheBind_getTheirMeters_andGroupsOfOneInterfaceAddUp() {
        Weft consumer = wefts.weft();
        Weft provider = wefts.weft();
        String red = wefts.export(provider, "red", "&group=red");
        String blue = wefts.export(provider, "blue", "&group=blue");
        Shop inRed = consumer.refer(Shop.class, "url=weft://" + red + "&group=red&hold.timeout=100&retries=1"
                + "&retry-budget=0&retry-budget-min=0");
        Shop inBlue = consumer.refer(Shop.class, "url=weft://" + blue + "&group=blue&hold.timeout=100&retries=1"
                + "&retry-budget=0&retry-budget-min=0");
        assertThatThrownBy(() -> inRed.hold("ada")).isInstanceOf(RpcException.class);

        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new WeftMetrics(consumer.director()).bindTo(meters);
        assertThat(count(meters, Meters.CLIENT_BUDGET_EXHAUSTED)).isEqualTo(1.0);
        assertThatThrownBy(() -> inBlue.hold("ada")).isInstanceOf(RpcException.class);

        assertThat(ResilienceStats.of(consumer.director()).services()).containsKeys("red/" + Shop.class.getName(),
                "blue/" + Shop.class.getName());
        assertThat(count(meters, Meters.CLIENT_BUDGET_EXHAUSTED)).as("both groups, under the interface's name").isEqualTo(2.0);
        assertThat(meters.find(Meters.CLIENT_BUDGET_EXHAUSTED).functionCounters()).hasSize(1);
    }

    @Test
    void anInterfaceWithoutMethods_getsNoMeters() {
        Weft consumer = wefts.weft();
        ResilienceMeters resilienceMeters = new ResilienceMeters();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        resilienceMeters.bindTo(meters);
        ResilienceStats stats = ResilienceStats.of(consumer.director());

        resilienceMeters.add(Runnable.class, stats.service(Runnable.class.getName()));
        resilienceMeters.add(Marker.class, stats.service(Marker.class.getName()));

        assertThat(meters.find(Meters.CLIENT_HEDGES).functionCounters()).singleElement()
                .satisfies(counter -> assertThat(counter.getId().getTag(Meters.SERVICE)).isEqualTo(Runnable.class.getName()));
    }

    /** A service interface that declares nothing, like the probe the registry's rule check joins. */
    private interface Marker {
    }

    /** The value of the function counter {@code name} of {@link Shop}. */
    private static double count(MeterRegistry meters, String name) {
        return meters.get(name).tags(Meters.SYSTEM, "weft", Meters.SERVICE, Shop.class.getName()).functionCounter().count();
    }
}
