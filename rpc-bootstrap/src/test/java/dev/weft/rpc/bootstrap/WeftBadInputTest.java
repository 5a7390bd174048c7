package dev.weft.rpc.bootstrap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad input to {@code export} and {@code refer} fails at once, naming the input and the rule. */
class WeftBadInputTest {

    private final Weft weft = Weft.builder().build();

    @AfterEach
    void close() {
        weft.close();
    }

    @Test
    void export_onTheAnyAddress_withoutRegisterHost_failsNamingTheKey_andBindsNothing() {
        assertThatThrownBy(() -> weft.export(Greeter.class, new NamedGreeter("a"), "weft://0.0.0.0:0"))
                .isInstanceOf(RuntimeException.class)
                .hasMessageContaining("register-host");
    }

    @Test
    void badArguments_failAtOnce_namingTheArgument() {
        assertThatThrownBy(() -> weft.refer(null, "url=injvm://127.0.0.1"))
                .isInstanceOf(NullPointerException.class).hasMessage("type");
        assertThatThrownBy(() -> weft.refer(Greeter.class, (String) null))
                .isInstanceOf(NullPointerException.class).hasMessage("consumerParameters");
        assertThatThrownBy(() -> weft.export(Greeter.class, null, "injvm://127.0.0.1"))
                .isInstanceOf(NullPointerException.class).hasMessage("implementation");
        assertThatThrownBy(() -> weft.export(Greeter.class, new NamedGreeter("a"), "weft//127.0.0.1:0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("providerUrl weft//127.0.0.1:0").hasMessageContaining("[injvm, weft]");
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void export_ofAnImplementationOfAnotherType_isRejected() {
        Class raw = Greeter.class;
        assertThatThrownBy(() -> weft.export(raw, "not a greeter", "injvm://127.0.0.1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Greeter.class.getName());
    }

    @Test
    void export_registersTheInterfacesMethods_andRefusesAMethodsKeyNamingOthers() {
        assertThat(weft.export(Greeter.class, new NamedGreeter("a"), "injvm://127.0.0.1").getInvoker().getUrl()
                .getParameter("methods")).isEqualTo("greet");
        assertThatThrownBy(() -> weft.export(Greeter.class, new NamedGreeter("b"), "injvm://127.0.0.2?methods=greet,bye"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("methods=greet,bye")
                .hasMessageContaining("expected: greet, the interface's methods");
    }

    @Test
    void refer_withAnInterfaceKeyNamingAnotherType_isRejected() {
        weft.export(Greeter.class, new NamedGreeter("a"), "injvm://127.0.0.1");
        assertThatThrownBy(() -> weft.refer(Greeter.class, "url=injvm://127.0.0.1&interface=com.example.Other"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("interface=com.example.Other")
                .hasMessageContaining("expected: " + Greeter.class.getName());
    }

    @Test
    void refer_withAnEmptyUrlEntry_failsNamingTheEntry_evenWithoutCheck() {
        weft.export(Greeter.class, new NamedGreeter("a"), "injvm://127.0.0.1");
        assertThatThrownBy(() -> weft.refer(Greeter.class, "url=,&check=false"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("url entry ''");
        assertThatThrownBy(() -> weft.refer(Greeter.class, "url=injvm://127.0.0.1,&check=false"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("url entry ''");
    }

    @ParameterizedTest
    @ValueSource(strings = {"weft://ops:s3cret@127.0.0.1:1/x?a=%zz", "nosuch://ops:s3cret@127.0.0.1:1"})
    void refer_withABadUrlEntryCarryingAPassword_failsWithoutShowingThePassword(String entry) {
        assertThatThrownBy(() -> weft.refer(Greeter.class, "url=" + URLEncoder.encode(entry, StandardCharsets.UTF_8)
                + "&check=false"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("url entry")
                .hasMessageContaining("ops:***@127.0.0.1")
                .hasMessageNotContaining("s3cret");
    }

    @ParameterizedTest
    @ValueSource(strings = {"timeout=0", "timeout=-5", "greet.timeout=-1"})
    void refer_withATimeoutThatIsNotPositive_failsAtRefer_notAtEveryCall(String timeout) {
        weft.export(Greeter.class, new NamedGreeter("a"), "injvm://127.0.0.1");
        String key = timeout.substring(0, timeout.indexOf('='));
        String value = timeout.substring(timeout.indexOf('=') + 1);
        assertThatThrownBy(() -> weft.refer(Greeter.class, "url=injvm://127.0.0.1&check=false&" + timeout))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(key + ": " + value + " (expected: milliseconds > 0)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"timeout=0", "weight=abc", "weight=-1", "greet.weight=x", "timestamp=abc", "warmup=1m"})
    void export_withANumberOnlyConsumersRead_malformed_failsAtExport_andBindsNothing(String parameter) throws IOException {
        int port = freePort();
        String key = parameter.substring(0, parameter.indexOf('='));
        assertThatThrownBy(() -> weft.export(Greeter.class, new NamedGreeter("a"), "weft://127.0.0.1:" + port + "?" + parameter))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("export " + Greeter.class.getName())
                .hasMessageContaining(key + ": ")
                .hasMessageContaining("expected: ");
        try (ServerSocket free = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(free.getLocalPort()).isEqualTo(port);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
