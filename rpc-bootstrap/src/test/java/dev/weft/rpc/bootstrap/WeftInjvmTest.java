package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WeftInjvmTest {

    public interface Greeter {
        String greet(String name);

        int count();
    }

    static final class Hello implements Greeter {
        @Override
        public String greet(String name) {
            return "hello " + name;
        }

        @Override
        public int count() {
            return 7;
        }
    }

    @Test
    void exportThenRefer_inProcess_callsTheImplementation() {
        try (Weft weft = Weft.builder().application("shop").build()) {
            weft.export(Greeter.class, new Hello(), "injvm://127.0.0.1");
            Greeter greeter = weft.refer(Greeter.class, "url=injvm://127.0.0.1&retries=0");

            assertThat(greeter.greet("ada")).isEqualTo("hello ada");
            assertThat(greeter.count()).isEqualTo(7);
        }
    }

    @Test
    void refer_takesAMapOfParameters_andTheMockModuleDegradesAMethod() {
        try (Weft weft = Weft.builder().build()) {
            weft.export(Greeter.class, new Hello(), "injvm://127.0.0.1");
            Greeter greeter = weft.refer(Greeter.class,
                    Map.of("url", "injvm://127.0.0.1", "greet.mock", "force:return degraded"));

            assertThat(greeter.greet("ada")).isEqualTo("degraded");
            assertThat(greeter.count()).isEqualTo(7);
        }
    }

    @Test
    void export_withUnknownProtocol_failsAtOnce_listingTheAvailableOnes() {
        try (Weft weft = Weft.builder().build()) {
            assertThatThrownBy(() -> weft.export(Greeter.class, new Hello(), "wefd://127.0.0.1:0"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("protocol wefd")
                    .hasMessageContaining("injvm");
        }
    }

    @Test
    void refer_withoutProviderSource_failsNamingTheKeyToSet() {
        try (Weft weft = Weft.builder().build()) {
            assertThatThrownBy(() -> weft.refer(Greeter.class, "timeout=100"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("refer " + Greeter.class.getName())
                    .hasMessageContaining("url=weft://127.0.0.1:20880");
        }
    }

    @Test
    void refer_withBadUrlEntry_namesTheEntry() {
        try (Weft weft = Weft.builder().build()) {
            assertThatThrownBy(() -> weft.refer(Greeter.class, "url=injvm://127.0.0.1,nope%3A%2F%2F127.0.0.1"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("nope://127.0.0.1")
                    .hasMessageContaining("injvm");
        }
    }

    @Test
    void refer_withCheck_failsWhenNoProviderIsAvailable_andWithoutCheck_referAnyway() {
        try (Weft weft = Weft.builder().build()) {
            assertThatThrownBy(() -> weft.refer(Greeter.class, "url=injvm://127.0.0.1&timeout=50&version=2.0"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(Greeter.class.getName() + " version 2.0")
                    .hasMessageContaining("no available provider within 50 ms");

            Greeter unchecked = weft.refer(Greeter.class, "url=injvm://127.0.0.1&check=false&retries=0");
            assertThatThrownBy(() -> unchecked.greet("x")).isInstanceOf(RpcException.class);

            weft.export(Greeter.class, new Hello(), "injvm://127.0.0.1");
            assertThat(unchecked.greet("x")).isEqualTo("hello x");
        }
    }

    @Test
    void refer_withUnknownClusterName_failsAtReferNotAtTheFirstCall() {
        try (Weft weft = Weft.builder().build()) {
            weft.export(Greeter.class, new Hello(), "injvm://127.0.0.1");
            assertThatThrownBy(() -> weft.refer(Greeter.class, "url=injvm://127.0.0.1&cluster=failovr"))
                    .hasMessageContaining("failovr")
                    .hasMessageContaining("did you mean 'failover'");
        }
    }

    @Test
    void refer_withAMockThatCannotFitAMethod_failsAtRefer() {
        try (Weft weft = Weft.builder().build()) {
            weft.export(Greeter.class, new Hello(), "injvm://127.0.0.1");
            assertThatThrownBy(() -> weft.refer(Greeter.class, "url=injvm://127.0.0.1&mock=force:return abc"))
                    .hasMessageContaining("count");
        }
    }

    @Test
    void close_unexportsItsServices_butLeavesAGivenDirectorOpen() {
        try (ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader())) {
            Weft provider = Weft.builder().director(director).build();
            Exporter<Greeter> exporter = provider.export(Greeter.class, new Hello(), "injvm://127.0.0.1");
            Weft consumer = Weft.builder().director(director).build();
            Greeter greeter = consumer.refer(Greeter.class, "url=injvm://127.0.0.1&retries=0");
            assertThat(greeter.greet("a")).isEqualTo("hello a");
            assertThat(exporter.getInvoker().isAvailable()).isTrue();

            provider.close();

            assertThatThrownBy(() -> greeter.greet("a")).isInstanceOf(RpcException.class);
            assertThat(director.isClosed()).isFalse();
            consumer.close();
            assertThat(director.isClosed()).isFalse();
            assertThatThrownBy(() -> consumer.refer(Greeter.class, "url=injvm://127.0.0.1"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        }
    }

    @Test
    void export_ofAClass_isRejected() {
        try (Weft weft = Weft.builder().build()) {
            assertThatThrownBy(() -> weft.export(Hello.class, new Hello(), "injvm://127.0.0.1"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("expected: an interface");
        }
    }
}
