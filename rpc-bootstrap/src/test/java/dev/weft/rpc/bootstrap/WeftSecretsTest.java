package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.RpcException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowable;

/** A password never reaches a message: not in an {@code url=} entry, not in a registry URL's parameters. */
class WeftSecretsTest {

    private static final String SECRET = "s3cret";
    private final Weft weft = Weft.builder().build();

    @AfterEach
    void close() {
        weft.close();
    }

    @Test
    void urlEntryWithAPassword_isMaskedInTheReferCheckFailure() throws IOException {
        int dead = freePort();
        Throwable thrown = catchThrowable(() -> weft.refer(Greeter.class,
                "url=weft://ops:" + SECRET + "@127.0.0.1:" + dead + "&timeout=300"));

        assertThat(thrown).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("url=weft://ops:***@127.0.0.1:" + dead)
                .hasMessageNotContaining(SECRET);
    }

    @Test
    void urlEntryWithAPassword_isMaskedInTheProxysToString_andInCallErrors() throws IOException {
        int dead = freePort();
        Greeter greeter = weft.refer(Greeter.class,
                "url=weft://ops:" + SECRET + "@127.0.0.1:" + dead + "&check=false&timeout=300&retries=1");

        assertThat(greeter.toString()).contains("ops%3A***%40").doesNotContain(SECRET);
        Throwable failed = catchThrowable(() -> greeter.greet("ada"));
        assertThat(failed).isInstanceOf(RpcException.class);
        for (Throwable t = failed; t != null; t = t.getCause()) {
            assertThat(t.getMessage()).as("message of %s", t.getClass().getName()).doesNotContain(SECRET);
        }
    }

    @Test
    void registryUrlWithUsernameAndPasswordParameters_isRefused_namingTheUserPasswordAtHostForm() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Weft.builder().registry("zookeeper://127.0.0.1:2181?username=ops&password=" + SECRET))
                .withMessageContaining("zookeeper://user:password@host:port")
                .withMessageContaining("username")
                .withMessageNotContaining(SECRET);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Weft.builder().registry("zookeeper://127.0.0.1:2181?password=" + SECRET))
                .withMessageStartingWith("registry: parameter password in zookeeper://127.0.0.1:2181 (password removed)")
                .withMessageNotContaining(SECRET);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
