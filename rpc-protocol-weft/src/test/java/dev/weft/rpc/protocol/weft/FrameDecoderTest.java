package dev.weft.rpc.protocol.weft;

import com.google.common.io.BaseEncoding;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The frame layout byte by byte, and the decoder under fragmented, coalesced and malformed input. */
class FrameDecoderTest {

    private static final BaseEncoding HEX = BaseEncoding.base16().lowerCase();

    @AfterAll
    static void noLeaks() {
        LeakCounter.assertNoLeaks();
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] out = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), out);
        buf.release();
        return out;
    }

    private static String utf8(String s) {
        return HEX.encode(s.getBytes(StandardCharsets.UTF_8));
    }

    private static ByteBuf echoRequest() throws Exception {
        Method echo = Shapes.class.getMethod("echo", String.class);
        return RequestCodec.encode(ByteBufAllocator.DEFAULT, new JsonSerialization(), 7, 250, 42, "svc", echo,
                new Object[] {"hi"}, Map.of("k", "v"));
    }

    @Test
    void request_goldenBytes() throws Exception {
        String body = "0003" + utf8("svc")
                + "0004" + utf8("echo")
                + "0010" + utf8("java.lang.String")
                + "0002" // the consumer's clock reading first, then the call's attachments
                + "000f" + utf8("weft.sent-nanos") + "0002" + utf8("42")
                + "0001" + utf8("k") + "0001" + utf8("v")
                + utf8("\"hi\"");
        String header = "5746" + "01" + "c0" + "00" + "01" + "0000"
                + "0000000000000007"
                + "000000fa"
                + String.format("%08x", body.length() / 2);
        assertThat(HEX.encode(bytes(echoRequest()))).isEqualTo(header + body);
    }

    @Test
    void events_and_statusAnswer_goldenBytes() {
        assertThat(HEX.encode(bytes(Frame.event(ByteBufAllocator.DEFAULT, Frame.EVENT_PING, new byte[0]))))
                .isEqualTo("5746" + "01" + "20" + "01" + "00" + "0000" + "0000000000000000" + "00000000" + "00000000");
        assertThat(HEX.encode(bytes(Frame.ping(ByteBufAllocator.DEFAULT, 0x0A0B0C0DL))))
                .isEqualTo("5746" + "01" + "20" + "01" + "00" + "0000" + "0000000000000000" + "00000000" + "00000008"
                        + "000000000a0b0c0d");
        assertThat(HEX.encode(bytes(Frame.event(ByteBufAllocator.DEFAULT, Frame.EVENT_GOAWAY, new byte[] {'s'}))))
                .isEqualTo("5746" + "01" + "20" + "03" + "00" + "0000" + "0000000000000000" + "00000000" + "00000001" + "73");
        assertThat(HEX.encode(bytes(Frame.event(ByteBufAllocator.DEFAULT, Frame.EVENT_SERVING, new byte[] {'s'}))))
                .isEqualTo("5746" + "01" + "20" + "05" + "00" + "0000" + "0000000000000000" + "00000000" + "00000001" + "73");
        assertThat(HEX.encode(bytes(Frame.cancel(ByteBufAllocator.DEFAULT, 0x0102030405L))))
                .isEqualTo("5746" + "01" + "20" + "04" + "00" + "0000" + "0000000102030405" + "00000000" + "00000000");
        assertThat(HEX.encode(bytes(ResponseCodec.status(ByteBufAllocator.DEFAULT, 9, Status.NOT_PROCESSED, "busy"))))
                .isEqualTo("5746" + "01" + "00" + "02" + "00" + "0000" + "0000000000000009" + "00000000" + "00000004"
                        + utf8("busy"));
    }

    @Test
    void oneByteAtATime_yieldsOneFrame() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(FrameDecoder.forProvider(1024));
        byte[] frame = bytes(echoRequest());
        for (int i = 0; i < frame.length; i++) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {frame[i]}));
            if (i < frame.length - 1) {
                assertThat(channel.<Object>readInbound()).isNull();
            }
        }
        Frame decoded = channel.readInbound();
        try {
            assertThat(decoded.isRequest()).isTrue();
            assertThat(decoded.isTwoWay()).isTrue();
            assertThat(decoded.requestId()).isEqualTo(7);
            assertThat(decoded.deadlineMillis()).isEqualTo(250);
            assertThat(decoded.serializationId()).isEqualTo(JsonSerialization.ID);
            assertThat(decoded.body().readableBytes()).isEqualTo(frame.length - Frame.HEADER_LENGTH);
            assertThat(RequestCodec.readHead(decoded.body()).methodName()).isEqualTo("echo");
        } finally {
            decoded.release();
        }
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void severalFramesInOneRead_yieldEachInOrder() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(FrameDecoder.forProvider(1024));
        ByteBuf all = Unpooled.buffer();
        all.writeBytes(bytes(Frame.event(ByteBufAllocator.DEFAULT, Frame.EVENT_PING, new byte[0])));
        all.writeBytes(bytes(echoRequest()));
        all.writeBytes(bytes(ResponseCodec.status(ByteBufAllocator.DEFAULT, 3, Status.BAD_REQUEST, "x")));
        all.writeBytes(bytes(echoRequest()), 0, 10);
        channel.writeInbound(all);

        Frame ping = channel.readInbound();
        Frame request = channel.readInbound();
        Frame answer = channel.readInbound();
        assertThat(channel.<Object>readInbound()).isNull();
        assertThat(ping.isEvent()).isTrue();
        assertThat(request.requestId()).isEqualTo(7);
        assertThat(answer.status()).isEqualTo(Status.BAD_REQUEST);
        ping.release();
        request.release();
        answer.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void consumerDecoder_discardsAnOversizedAnswerInPieces_andDecodesWhatFollows() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(FrameDecoder.forConsumer(8));
        byte[] big = bytes(ResponseCodec.status(ByteBufAllocator.DEFAULT, 5, Status.NOT_PROCESSED, "0123456789abcdefghij"));
        byte[] next = bytes(ResponseCodec.status(ByteBufAllocator.DEFAULT, 6, Status.NOT_PROCESSED, "ok"));
        channel.writeInbound(Unpooled.wrappedBuffer(big, 0, Frame.HEADER_LENGTH + 3));
        channel.writeInbound(Unpooled.wrappedBuffer(big, Frame.HEADER_LENGTH + 3, 10));
        ByteBuf tail = Unpooled.buffer();
        tail.writeBytes(big, Frame.HEADER_LENGTH + 13, big.length - Frame.HEADER_LENGTH - 13);
        tail.writeBytes(next);
        channel.writeInbound(tail);

        assertThat(channel.<Object>readInbound()).isEqualTo(new FrameDecoder.Oversized(5, 20, 8));
        Frame following = channel.readInbound();
        assertThat(following.requestId()).isEqualTo(6);
        assertThat(following.body().toString(StandardCharsets.UTF_8)).isEqualTo("ok");
        following.release();
        assertThat(channel.<Object>readInbound()).isNull();
        channel.finishAndReleaseAll();
    }

    @Test
    void providerDecoder_skipsATwoWayRequestOfUpToTwicePayload_andDecodesWhatFollows() {
        EmbeddedChannel channel = new EmbeddedChannel(FrameDecoder.forProvider(8));
        String header = "5746" + "01" + "c0" + "00" + "01" + "0000" + "0000000000000009" + "00000000" + "00000010";
        ByteBuf input = Unpooled.buffer();
        input.writeBytes(HEX.decode(header));
        input.writeBytes(new byte[16]);
        ByteBuf following = Frame.event(ByteBufAllocator.DEFAULT, Frame.EVENT_PING, new byte[0]);
        input.writeBytes(following);
        following.release();
        channel.writeInbound(input);

        assertThat(channel.<Object>readInbound()).isEqualTo(new FrameDecoder.Oversized(9, 16, 8));
        Frame ping = channel.readInbound();
        assertThat(ping.isEvent()).isTrue();
        ping.release();
        assertThat(channel.<Object>readInbound()).isNull();
        channel.finishAndReleaseAll();
    }

    @Test
    void providerDecoder_refusesARequestOfMoreThanTwicePayload_evenWhenAnswerable() {
        EmbeddedChannel channel = new EmbeddedChannel(FrameDecoder.forProvider(8));
        String header = "5746" + "01" + "c0" + "00" + "01" + "0000" + "0000000000000009" + "00000000" + "00000011";
        try {
            channel.writeInbound(Unpooled.wrappedBuffer(HEX.decode(header)));
            throw new AssertionError("expected a malformed frame");
        } catch (MalformedFrameException e) {
            assertThat(e).hasMessage("frame body length: 17 bytes (expected: <= payload 8)");
            assertThat(e.isAnswerableRequest()).isTrue();
            assertThat(e.requestId()).isEqualTo(9);
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void consumerDecoder_stillRefusesAnOversizedRequestOrEvent() {
        EmbeddedChannel channel = new EmbeddedChannel(FrameDecoder.forConsumer(1));
        try {
            channel.writeInbound(Frame.event(ByteBufAllocator.DEFAULT, Frame.EVENT_GOAWAY, new byte[] {'a', 'b'}));
            throw new AssertionError("expected a malformed frame");
        } catch (MalformedFrameException e) {
            assertThat(e).hasMessage("frame body length: 2 bytes (expected: <= payload 1)");
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    private static MalformedFrameException decodeFailure(String hex) {
        EmbeddedChannel channel = new EmbeddedChannel(FrameDecoder.forProvider(1024));
        try {
            channel.writeInbound(Unpooled.wrappedBuffer(HEX.decode(hex)));
            throw new AssertionError("expected a malformed frame");
        } catch (MalformedFrameException e) {
            return e;
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void wrongMagic_versionFlagsOrReserved_areMalformed() {
        String rest = "0000000000000001" + "00000000" + "00000000";
        assertThat(decodeFailure("dabb" + "01" + "c0" + "00" + "01" + "0000" + rest))
                .hasMessage("frame magic: 0xdabb (expected: 0x5746)");
        assertThat(decodeFailure("5746" + "02" + "c0" + "00" + "01" + "0000" + rest))
                .hasMessage("frame version: 2 (expected: 1)");
        assertThat(decodeFailure("5746" + "01" + "c1" + "00" + "01" + "0000" + rest))
                .hasMessageStartingWith("frame flags: 0xc1");
        assertThat(decodeFailure("5746" + "01" + "c0" + "00" + "01" + "0001" + rest))
                .hasMessage("frame reserved bytes: 1 (expected: 0)");
        assertThat(decodeFailure("5746" + "01" + "c0" + "00" + "01" + "0000" + "0000000000000001" + "ffffffff" + "00000000"))
                .hasMessageStartingWith("frame deadline: -1 ms");
    }

    @Test
    void bodyLongerThanPayload_isRejectedFromTheHeader_namingTheRequest() {
        MalformedFrameException e = decodeFailure("5746" + "01" + "c0" + "00" + "01" + "0000" + "000000000000002a"
                + "00000000" + "7fffffff");
        assertThat(e).hasMessage("frame body length: 2147483647 bytes (expected: <= payload 1024)");
        assertThat(e.isAnswerableRequest()).isTrue();
        assertThat(e.requestId()).isEqualTo(42);
    }

    @Test
    void oversizedOneWayRequestOrEvent_isNotAnswerable() {
        String tail = "01" + "0000" + "000000000000002a" + "00000000" + "00000800";
        assertThat(decodeFailure("5746" + "01" + "80" + "00" + tail).isAnswerableRequest()).as("one-way request").isFalse();
        assertThat(decodeFailure("5746" + "01" + "e0" + "00" + tail).isAnswerableRequest()).as("two-way event").isFalse();
        assertThat(decodeFailure("5746" + "01" + "40" + "00" + tail).isAnswerableRequest()).as("answer").isFalse();
    }

    @Test
    void bodyOfExactlyPayload_isAFrame_onBothSides() throws Exception {
        byte[] answer = bytes(ResponseCodec.status(ByteBufAllocator.DEFAULT, 4, Status.NOT_PROCESSED, "12345678"));
        for (boolean consumer : new boolean[] {false, true}) {
            EmbeddedChannel channel = new EmbeddedChannel(consumer ? FrameDecoder.forConsumer(8) : FrameDecoder.forProvider(8));
            channel.writeInbound(Unpooled.wrappedBuffer(answer));
            Frame frame = channel.readInbound();
            assertThat(frame.body().readableBytes()).as("consumer %s", consumer).isEqualTo(8);
            frame.release();
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void afterAMalformedFrame_furtherBytesAreDiscarded() {
        EmbeddedChannel channel = new EmbeddedChannel(FrameDecoder.forProvider(1024));
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(new byte[24])))
                .isInstanceOf(MalformedFrameException.class);
        ByteBuf valid = Frame.event(ByteBufAllocator.DEFAULT, Frame.EVENT_PING, new byte[0]);
        channel.writeInbound(valid);
        assertThat(channel.<Object>readInbound()).isNull();
        assertThat(valid.refCnt()).isZero();
        channel.finishAndReleaseAll();
    }
}
