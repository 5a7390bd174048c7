package dev.weft.rpc.spring.boot;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The weft health indicator: exports bound, providers per reference, registry session. */
class WeftHealthTest {

    private static TestZooKeeper zooKeeper;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zooKeeper = new TestZooKeeper();
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zooKeeper.close();
    }

    /** Exports Greeter and refers it (check=false: the export comes after the refer, at start). */
    static class SelfCaller {
        @WeftReference(parameters = "check=false")
        Greeter greeter;
    }

    @Test
    @SuppressWarnings("unchecked")
    void health_isUp_onceTheReferenceSeesTheExport_withDetails() throws Exception {
        WeftAutoConfigurationTest.runner(zooKeeper)
                .withUserConfiguration(Services.PlainGreeter.class, SelfCaller.class)
                .run(context -> {
                    HealthIndicator indicator = context.getBean("weftHealthIndicator", HealthIndicator.class);
                    Health health = awaitUp(indicator, Duration.ofSeconds(10));
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    Map<String, Object> exports = (Map<String, Object>) health.getDetails().get("exports");
                    assertThat((Map<String, Object>) exports.get(Greeter.class.getName())).containsEntry("bound", true);
                    Map<String, Object> references = (Map<String, Object>) health.getDetails().get("references");
                    assertThat((Map<String, Object>) references.get(Greeter.class.getName()))
                            .containsEntry("providers", 1).containsEntry("available", 1L);
                    assertThat((Map<String, Object>) health.getDetails().get("registry")).containsEntry("session", "CONNECTED");
                });
    }

    @Test
    @SuppressWarnings("unchecked")
    void health_isDown_whenAReferenceHasNoProvider() {
        WeftAutoConfigurationTest.runner(zooKeeper)
                .withUserConfiguration(SelfCaller.class)
                .run(context -> {
                    Health health = context.getBean("weftHealthIndicator", HealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    Map<String, Object> references = (Map<String, Object>) health.getDetails().get("references");
                    assertThat((Map<String, Object>) references.get(Greeter.class.getName())).containsEntry("available", 0L);
                });
    }

    @Test
    void health_isLeftOut_withoutActuatorsHealthApi() {
        WeftAutoConfigurationTest.runner(zooKeeper)
                .withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(WeftHealthIndicator.class));
    }

    private static Health awaitUp(HealthIndicator indicator, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        Health health = indicator.health(true);
        while (health.getStatus() != Status.UP && System.nanoTime() < deadline) {
            Thread.sleep(20);
            health = indicator.health(true);
        }
        return health;
    }
}
