package dev.weft.rpc.spring.boot;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

import java.util.concurrent.CompletableFuture;
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
    private static ConfigurableApplicationContext provider(Class<?> service) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        org.springframework.boot.test.util.TestPropertyValues.of("weft.registry=" + zooKeeper.registry(),
                "weft.provider.url=weft://127.0.0.1:0", "weft.shutdown-timeout=5s").applyTo(context);
        context.register(WeftAutoConfiguration.class, service);
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
