package dev.weft.rpc.spring.boot;

import dev.weft.rpc.bootstrap.Weft;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** Start-up: the Weft bean from weft.* properties, exports after refresh, injected references, placeholders. */
class WeftAutoConfigurationTest {

    private static TestZooKeeper zooKeeper;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zooKeeper = new TestZooKeeper();
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zooKeeper.close();
    }

    /** A context with the starter's auto-configuration, registered in {@code zooKeeper}, exporting on a free port. */
    static ApplicationContextRunner runner(TestZooKeeper zooKeeper) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WeftAutoConfiguration.class, WeftHealthAutoConfiguration.class))
                .withPropertyValues("weft.registry=" + zooKeeper.registry(), "weft.provider.url=weft://127.0.0.1:0");
    }

    private static ApplicationContextRunner runner() {
        return runner(zooKeeper);
    }

    @Test
    void weftBean_takesApplicationFromSpringApplicationName() {
        runner().withPropertyValues("spring.application.name=shop").run(context -> {
            assertThat(context).hasSingleBean(Weft.class).hasSingleBean(WeftServiceExports.class);
            assertThat(context.getBean(WeftProperties.class).getHost()).isEqualTo("127.0.0.1");
        });
    }

    @Test
    void relaxedPropertyNames_areKnown() {
        runner().withPropertyValues("weft.shutdownTimeout=2s", "weft.consumer.PARAMETERS=timeout=300").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(WeftProperties.class).getShutdownTimeout()).hasSeconds(2);
            assertThat(context.getBean(WeftProperties.class).getConsumer().getParameters()).isEqualTo("timeout=300");
        });
    }

    @Test
    void service_exportedOnlyAfterEverySingletonIsCreated_withPlaceholdersResolved() throws Exception {
        runner().withUserConfiguration(Services.WeightedGreeter.class, ProvidersAtInit.class)
                .withPropertyValues("greeter.weight=150")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(ProvidersAtInit.class).seen).containsExactly(0);
                    List<String> providers = zooKeeper.providers(Greeter.class);
                    assertThat(providers).hasSize(1);
                    String registered = URLDecoder.decode(providers.get(0), StandardCharsets.UTF_8);
                    assertThat(registered).contains("weight=150").contains("application=weft")
                            .contains("shutdown-timeout=10000");
                });
        assertThat(zooKeeper.providers(Greeter.class)).isEmpty();
    }

    @Test
    void reference_injectedIntoField_callsTheProvider() {
        runner().withUserConfiguration(Services.PlainGreeter.class).run(provider ->
                runner().withUserConfiguration(Services.Caller.class)
                        .withPropertyValues("weft.consumer.parameters=timeout=2000")
                        .run(consumer -> {
                            assertThat(consumer).hasNotFailed();
                            assertThat(consumer.getBean(Services.Caller.class).greeter.greet("ada")).isEqualTo("hello ada");
                        }));
    }

    @Test
    void referencesWithEqualParameters_shareOneProxy() {
        runner().withUserConfiguration(Services.PlainGreeter.class).run(provider ->
                runner().withUserConfiguration(Services.Caller.class, Services.SecondCaller.class).run(consumer ->
                        assertThat(consumer.getBean(Services.SecondCaller.class).greeter)
                                .isSameAs(consumer.getBean(Services.Caller.class).greeter)));
    }

    /** Records how many providers the registry had when every singleton was created. */
    static class ProvidersAtInit implements org.springframework.beans.factory.SmartInitializingSingleton {
        final List<Integer> seen = new CopyOnWriteArrayList<>();

        @Override
        public void afterSingletonsInstantiated() {
            try {
                seen.add(zooKeeper.providers(Greeter.class).size());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
