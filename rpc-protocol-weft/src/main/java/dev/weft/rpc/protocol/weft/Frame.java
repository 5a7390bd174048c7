package dev.weft.rpc.protocol.weft;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.util.Objects;

/**
 * One decoded frame: the fixed 24-byte header and its body. The body is a retained slice that the
 * receiver must release exactly once ({@link #release()}).
 *
 * <p>Header layout, big-endian:
 * <pre>
 * offset size field
 *   0     2   magic 0x57 0x46 ("WF")
 *   2     1   version (1)
 *   3     1   flags: 0x80 request, 0x40 two-way, 0x20 event; other bits must be 0
 *   4     1   responses: status; events: kind; requests: 0
 *   5     1   serialization id (0 for events)
 *   6     2   reserved, must be 0
 *   8     8   request id, per connection (CANCEL events: the cancelled request's; other events: 0)
 *  16     4   requests: remaining deadline in ms (0 = none); otherwise 0
 *  20     4   body length
 * </pre>
 */
record Frame(int flags, int status, byte serializationId, long requestId, int deadlineMillis, ByteBuf body) {

    static final int MAGIC = 0x5746;
    static final int VERSION = 1;
    static final int HEADER_LENGTH = 24;
    static final int LENGTH_OFFSET = 20;

    static final int FLAG_REQUEST = 0x80;
    static final int FLAG_TWO_WAY = 0x40;
    static final int FLAG_EVENT = 0x20;
    static final int KNOWN_FLAGS = FLAG_REQUEST | FLAG_TWO_WAY | FLAG_EVENT;

    /** Event kinds (header byte 4 of an event frame). */
    static final int EVENT_PING = 1;
    static final int EVENT_PONG = 2;
    /** The provider stops taking calls: body empty for every service, else the UTF-8 service key ({@code group/interface:version}). */
    static final int EVENT_GOAWAY = 3;
    /**
     * The consumer gave up on the request whose id the header carries (its deadline passed, or its
     * caller stopped waiting); body empty. The provider skips that call if it has not started yet,
     * and sends no answer for it.
     */
    static final int EVENT_CANCEL = 4;
    /**
     * The provider serves the service whose UTF-8 key is the body (again, after a GOAWAY for it):
     * sent on every connection when a service is exported on a running server.
     */
    static final int EVENT_SERVING = 5;

    Frame {
        Objects.requireNonNull(body, "body");
    }

    boolean isRequest() {
        return (flags & FLAG_REQUEST) != 0;
    }

    boolean isEvent() {
        return (flags & FLAG_EVENT) != 0;
    }

    boolean isTwoWay() {
        return (flags & FLAG_TWO_WAY) != 0;
    }

    void release() {
        body.release();
    }

    /**
     * Starts a frame in a new buffer: writes the header with a zero body length; the caller
     * appends the body and then calls {@link #finish(ByteBuf)}.
     */
    static ByteBuf start(ByteBufAllocator alloc, int flags, int status, byte serializationId,
                         long requestId, int deadlineMillis) {
        return start(alloc, flags, status, serializationId, requestId, deadlineMillis, Integer.MAX_VALUE - HEADER_LENGTH);
    }

    /**
     * As {@link #start(ByteBufAllocator, int, int, byte, long, int)}, in a buffer that cannot grow
     * past a body of {@code maxBody} bytes: writing more throws {@link IndexOutOfBoundsException}
     * (before the memory for it is allocated).
     */
    static ByteBuf start(ByteBufAllocator alloc, int flags, int status, byte serializationId,
                         long requestId, int deadlineMillis, int maxBody) {
        int maxCapacity = (int) Math.min(Integer.MAX_VALUE, (long) HEADER_LENGTH + maxBody);
        ByteBuf buf = alloc.buffer(Math.min(256, maxCapacity), maxCapacity);
        buf.writeShort(MAGIC)
                .writeByte(VERSION)
                .writeByte(flags)
                .writeByte(status)
                .writeByte(serializationId)
                .writeShort(0)
                .writeLong(requestId)
                .writeInt(deadlineMillis)
                .writeInt(0);
        return buf;
    }

    /** Writes the body length of a frame built with {@link #start}; returns that length. */
    static int finish(ByteBuf frame) {
        int bodyLength = frame.writerIndex() - frame.readerIndex() - HEADER_LENGTH;
        frame.setInt(frame.readerIndex() + LENGTH_OFFSET, bodyLength);
        return bodyLength;
    }

    /** A complete event frame with an optional body. */
    static ByteBuf event(ByteBufAllocator alloc, int kind, byte[] body) {
        ByteBuf buf = start(alloc, FLAG_EVENT, kind, (byte) 0, 0, 0);
        buf.writeBytes(body);
        finish(buf);
        return buf;
    }

    /**
     * A PING carrying the sender's monotonic clock reading {@code nanos} as an 8-byte body: the
     * provider takes it as a sample of the consumer's clock ({@link PeerClock}). A peer that reads
     * no body from a PING ignores it.
     */
    static ByteBuf ping(ByteBufAllocator alloc, long nanos) {
        ByteBuf buf = start(alloc, FLAG_EVENT, EVENT_PING, (byte) 0, 0, 0);
        buf.writeLong(nanos);
        finish(buf);
        return buf;
    }

    /** A CANCEL event for request {@code requestId} of this connection. */
    static ByteBuf cancel(ByteBufAllocator alloc, long requestId) {
        ByteBuf buf = alloc.buffer(HEADER_LENGTH);
        buf.writeShort(MAGIC)
                .writeByte(VERSION)
                .writeByte(FLAG_EVENT)
                .writeByte(EVENT_CANCEL)
                .writeByte(0)
                .writeShort(0)
                .writeLong(requestId)
                .writeInt(0)
                .writeInt(0);
        return buf;
    }
}
