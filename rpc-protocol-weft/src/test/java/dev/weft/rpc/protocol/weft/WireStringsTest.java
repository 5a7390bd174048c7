package dev.weft.rpc.protocol.weft;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The length-prefixed UTF-8 strings of a request's head, at their limits. */
class WireStringsTest {

    @AfterAll
    static void noLeaks() {
        LeakCounter.assertNoLeaks();
    }

    @Test
    void longestString_roundTrips_oneByteMoreIsRefused() {
        ByteBuf buf = Unpooled.buffer();
        String longest = "é".repeat(WireStrings.MAX_LENGTH / 2) + "x";
        WireStrings.write(buf, longest);
        assertThat(buf.readableBytes()).isEqualTo(2 + WireStrings.MAX_LENGTH);
        assertThat(WireStrings.read(buf, "method")).isEqualTo(longest);
        assertThat(buf.readableBytes()).isZero();
        assertThatThrownBy(() -> WireStrings.write(buf, longest + "y"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("wire string: 65536 bytes (expected: <= 65535)");
        buf.release();
    }

    @Test
    void emptyString_andOneEndingTheBody_areRead_shortOnesAreNamed() {
        ByteBuf empty = Unpooled.wrappedBuffer(new byte[] {0, 0});
        assertThat(WireStrings.read(empty, "group")).isEmpty();

        ByteBuf exact = Unpooled.wrappedBuffer(new byte[] {0, 2, 'o', 'k'});
        assertThat(WireStrings.read(exact, "group")).isEqualTo("ok");

        assertThatThrownBy(() -> WireStrings.read(Unpooled.wrappedBuffer(new byte[] {0}), "service"))
                .isInstanceOf(BadFrameBodyException.class)
                .hasMessage("service: missing (expected: a 2-byte length and UTF-8 bytes)");
        assertThatThrownBy(() -> WireStrings.read(Unpooled.wrappedBuffer(new byte[] {0, 3, 'o', 'k'}), "service"))
                .isInstanceOf(BadFrameBodyException.class)
                .hasMessage("service: 3 bytes announced, 2 left (expected: the whole string inside the body)");
    }

    @Test
    void rest_isTheRemainingBodyAsText() {
        ByteBuf buf = Unpooled.copiedBuffer("head:tail", StandardCharsets.UTF_8);
        buf.skipBytes(5);
        assertThat(WireStrings.rest(buf)).isEqualTo("tail");
        assertThat(buf.readableBytes()).isZero();
        buf.release();
    }
}
