package dev.weft.rpc.spring.boot;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Shutdown: exports go first and drain their calls; references outlive the beans that use them. */
class ShutdownTest {

    private static TestZooKeeper zooKeeper;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zooKeeper = new TestZooKeeper();
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zooKeeper.close();
    }

    private static ApplicationContextRunner runner() {
        return WeftAutoConfigurationTest.runner(zooKeeper);
    }

    /** A provider context of its own, so the test decides when it closes. */
    private static ConfigurableApplicationContext provider(Class<?>... services) {
        return provider(Duration.ofSeconds(5), services);
    }

    private static ConfigurableApplicationContext provider(Duration shutdownTimeout, Class<?>... services) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        org.springframework.boot.test.util.TestPropertyValues.of("weft.registry=" + zooKeeper.registry(),
                "weft.provider.url=weft://127.0.0.1:0", "weft.shutdown-timeout=" + shutdownTimeout.toMillis() + "ms")
                .applyTo(context);
        context.register(WeftAutoConfiguration.class);
        context.register(services);
        context.refresh();
        return context;
    }

    @Test
    void providerClose_unregistersFirst_andDrainsTheCallInFlight() throws Exception {
        ConfigurableApplicationContext provider = provider(Services.SlowGreeter.class);
        Services.SlowGreeter slow = provider.getBean(Services.SlowGreeter.class);
        runner().withUserConfiguration(Services.Caller.class)
                .withPropertyValues("weft.consumer.parameters=timeout=5000&retries=0")
                .run(consumer -> {
                    Greeter greeter = consumer.getBean(Services.Caller.class).greeter;
                    CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> greeter.greet("ada"));
                    assertThat(slow.started.await(5, TimeUnit.SECONDS)).isTrue();
                    provider.close();
                    assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("slow ada");
                    assertThat(zooKeeper.providers(Greeter.class)).isEmpty();
                });
    }

    /**
     * Three exports, each with a call that outlasts the drain bound: they drain together, so the
     * provider closes after about one {@code weft.shutdown-timeout} (one after the other would take
     * three). The lower bound shows the drains really waited for their calls.
     */
    @Test
    void providerClose_drainsEveryExportTogether_withinOneShutdownTimeout() throws Exception {
        Duration shutdownTimeout = Duration.ofSeconds(3);
        ConfigurableApplicationContext provider = provider(shutdownTimeout,
                Services.HeldGreeterA.class, Services.HeldGreeterB.class, Services.HeldGreeterC.class);
        runner().withUserConfiguration(Services.GroupCallers.class)
                .withPropertyValues("weft.consumer.parameters=timeout=20000&retries=0")
                .run(consumer -> {
                    Services.GroupCallers callers = consumer.getBean(Services.GroupCallers.class);
                    ExecutorService calling = Executors.newFixedThreadPool(3);
                    try {
                        for (Greeter greeter : List.of(callers.a, callers.b, callers.c)) {
                            calling.submit(() -> greeter.greet("ada"));
                        }
                        for (Services.HeldGreeter held : provider.getBeansOfType(Services.HeldGreeter.class).values()) {
                            assertThat(held.started.await(10, TimeUnit.SECONDS)).as("call in flight").isTrue();
                        }
                        long begun = System.nanoTime();
                        provider.close();
                        Duration took = Duration.ofNanos(System.nanoTime() - begun);
                        assertThat(took).isGreaterThanOrEqualTo(shutdownTimeout.minusMillis(100))
                                .isLessThan(shutdownTimeout.multipliedBy(2).plus(WeftServiceExports.DRAIN_GRACE));
                        assertThat(zooKeeper.providers(Greeter.class)).isEmpty();
                    } finally {
                        calling.shutdownNow();
                    }
                });
    }

    @Test
    void referenceStillWorks_whileTheBeanUsingItIsDestroyed() {
        try (ConfigurableApplicationContext provider = provider(Services.PlainGreeter.class)) {
            Services.CallerAtShutdown[] caller = new Services.CallerAtShutdown[1];
            runner().withUserConfiguration(Services.CallerAtShutdown.class)
                    .run(consumer -> caller[0] = consumer.getBean(Services.CallerAtShutdown.class));
            assertThat(caller[0].answers).containsExactly("hello bye");
        }
    }
}
