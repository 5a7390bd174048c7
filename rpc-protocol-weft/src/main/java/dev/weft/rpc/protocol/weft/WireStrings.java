package dev.weft.rpc.protocol.weft;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/** Length-prefixed (unsigned 16-bit) UTF-8 strings in frame bodies, read with bounds checks. */
final class WireStrings {

    static final int MAX_LENGTH = 0xFFFF;

    private WireStrings() {
    }

    static void write(ByteBuf buf, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_LENGTH) {
            throw new IllegalArgumentException("wire string: " + bytes.length + " bytes (expected: <= " + MAX_LENGTH + ")");
        }
        buf.writeShort(bytes.length).writeBytes(bytes);
    }

    /** Reads one string; {@link BadFrameBodyException} when the body ends inside it. */
    static String read(ByteBuf buf, String what) {
        if (buf.readableBytes() < 2) {
            throw new BadFrameBodyException(what + ": missing (expected: a 2-byte length and UTF-8 bytes)");
        }
        int length = buf.readUnsignedShort();
        if (buf.readableBytes() < length) {
            throw new BadFrameBodyException(what + ": " + length + " bytes announced, " + buf.readableBytes()
                    + " left (expected: the whole string inside the body)");
        }
        String value = buf.toString(buf.readerIndex(), length, StandardCharsets.UTF_8);
        buf.skipBytes(length);
        return value;
    }

    /** The rest of the body as UTF-8 text. */
    static String rest(ByteBuf buf) {
        String text = buf.toString(StandardCharsets.UTF_8);
        buf.skipBytes(buf.readableBytes());
        return text;
    }
}
