package dev.weft.rpc.spring.boot;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** Wrong configuration fails start-up with the key, the value and the closest known key. */
class StartupFailureTest {

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

    private static void assertFailure(ApplicationContextRunner runner, String... parts) {
        runner.run(context -> {
            assertThat(context).hasFailed();
            StringBuilder messages = new StringBuilder();
            for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
                messages.append(t.getMessage()).append('\n');
            }
            assertThat(messages.toString()).contains(parts);
        });
    }

    @Test
    void unknownWeftProperty_namesItsValue_andTheClosestProperty() {
        assertFailure(runner().withPropertyValues("weft.regsitry=zookeeper://127.0.0.1:1"),
                "weft.regsitry: zookeeper://127.0.0.1:1", "did you mean 'weft.registry'?");
    }

    @Test
    void badDuration_namesTheProperty() {
        assertFailure(runner().withPropertyValues("weft.shutdown-timeout=abc"), "weft.shutdown-timeout", "abc");
    }

    @Test
    void badHost_andBlankApplication_nameTheirProperty() {
        assertFailure(runner().withPropertyValues("weft.host=shop host"), "weft.host: host: 'shop host'");
        assertFailure(runner().withPropertyValues("weft.application= "), "weft.application: application: ''");
    }

    @Test
    void unknownKey_inConsumerParameters() {
        assertFailure(runner().withPropertyValues("weft.consumer.parameters=loadbalnce=p2c"),
                "weft.consumer.parameters: loadbalnce=p2c", "did you mean 'loadbalance'?");
    }

    @Test
    void unknownKey_inRegistryUrl() {
        assertFailure(runner().withPropertyValues("weft.registry=" + zooKeeper.registry() + "&sesion=5000"),
                "weft.registry: sesion=5000", "did you mean 'session'?");
    }

    @Test
    void unknownKey_inWeftService() {
        assertFailure(runner().withUserConfiguration(MistypedService.class),
                "@WeftService", "loadbalnce=p2c", "did you mean 'loadbalance'?");
    }

    @Test
    void methodKey_namingNoMethod_inWeftService() {
        assertFailure(runner().withUserConfiguration(MistypedMethodService.class),
                "gret.timeout=300", "did you mean 'greet.timeout'?");
    }

    @Test
    void badTimeout_inWeftReference_namesFieldKeyAndValue() {
        assertFailure(runner().withUserConfiguration(BadTimeoutCaller.class),
                "@WeftReference BadTimeoutCaller.greeter", "timeout", "abc");
    }

    @Test
    void unknownKey_inWeftReference() {
        assertFailure(runner().withUserConfiguration(MistypedCaller.class),
                "@WeftReference MistypedCaller.greeter", "loadbalnce=p2c", "did you mean 'loadbalance'?");
    }

    @Test
    void reference_withCheck_andNoProvider_failsNamingTheService() {
        assertFailure(runner().withUserConfiguration(Services.Caller.class)
                        .withPropertyValues("weft.consumer.parameters=timeout=300"),
                "@WeftReference Caller.greeter", Greeter.class.getName(), "no available provider within 300 ms");
    }

    @Test
    void service_withTwoInterfaces_andNoInterfaceClass() {
        assertFailure(runner().withUserConfiguration(TwoInterfaces.class),
                "implements [" + Greeter.class.getName() + ", " + Named.class.getName() + "]",
                "expected: exactly one service interface, or interfaceClass naming it");
    }

    @WeftService(parameters = "loadbalnce=p2c")
    static class MistypedService extends Services.PlainGreeter {
    }

    @WeftService(parameters = "gret.timeout=300")
    static class MistypedMethodService extends Services.PlainGreeter {
    }

    static class BadTimeoutCaller {
        @WeftReference(parameters = "timeout=abc&check=false")
        Greeter greeter;
    }

    static class MistypedCaller {
        @WeftReference(parameters = "loadbalnce=p2c")
        Greeter greeter;
    }

    interface Named {
        String name();
    }

    @WeftService
    static class TwoInterfaces implements Greeter, Named {
        @Override
        public String greet(String name) {
            return name;
        }

        @Override
        public String name() {
            return "two";
        }
    }
}
