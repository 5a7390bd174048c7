package dev.weft.rpc.protocol.weft;

import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The transport choice. Surefire runs this module's tests once with Netty's defaults (epoll on
 * Linux) and runs the socket tests again with {@code -Dio.netty.transport.noNative=true} (NIO).
 */
class TransportTest {

    @Test
    void best_isEpollOnLinux_unlessNettysNativeTransportsAreSwitchedOff() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        boolean nativeLibraryShipped = os.startsWith("linux") && (arch.equals("amd64") || arch.equals("aarch64"));
        boolean switchedOff = Boolean.getBoolean("io.netty.transport.noNative");
        Transport expected = nativeLibraryShipped && !switchedOff ? Transport.EPOLL : Transport.NIO;

        assertThat(Transport.best())
                .as("os %s/%s, noNative=%s, epoll unavailable because: %s", os, arch, switchedOff, Epoll.unavailabilityCause())
                .isEqualTo(expected);
    }

    @Test
    void eachTransport_namesChannelsOfItsOwnKind() {
        for (Transport transport : Transport.values()) {
            String kind = transport.name().charAt(0) + transport.name().substring(1).toLowerCase(Locale.ROOT);
            assertThat(transport.socketChannel().getSimpleName()).isEqualTo(kind + "SocketChannel");
            assertThat(transport.serverSocketChannel().getSimpleName()).isEqualTo(kind + "ServerSocketChannel");
        }
    }
}
