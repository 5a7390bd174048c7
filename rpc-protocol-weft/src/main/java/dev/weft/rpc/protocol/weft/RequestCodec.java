package dev.weft.rpc.protocol.weft;

import com.google.common.collect.ImmutableMap;
import dev.weft.rpc.protocol.Serialization;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.Map;

/**
 * Request bodies. A fixed binary head that needs no serialization (service key, method name,
 * parameter descriptor, attachments) lets the provider find the service and check the frame's
 * serialization id before a single argument byte is parsed; then come the arguments, written by
 * the service's serialization against the method's declared generic parameter types.
 */
final class RequestCodec {

    /** At most this many attachments per call. */
    static final int MAX_ATTACHMENTS = 1024;
    /**
     * Reserved attachment: the consumer's monotonic clock reading (ns, decimal) when it computed the
     * frame's remaining deadline, so the provider can place the deadline on its own clock
     * ({@link PeerClock}) however late it reads the frame. Read by the codec, never shown to the
     * service; a user attachment of this name is not sent.
     */
    static final String SENT_AT = "weft.sent-nanos";
    /** {@link Head#sentNanos()} of a request that carries no {@value #SENT_AT}. */
    static final long NOT_STAMPED = Long.MIN_VALUE;

    private RequestCodec() {
    }

    /**
     * The head of a request: what to call and with which attachments; {@code sentNanos} is the
     * consumer's clock reading of {@value #SENT_AT}, or {@link #NOT_STAMPED}.
     */
    record Head(String service, String methodName, String descriptor, Map<String, String> attachments, long sentNanos) {
    }

    /**
     * A complete request frame (two-way); {@code sentNanos} is this consumer's monotonic clock reading
     * at which {@code deadlineMillis} was left.
     */
    static ByteBuf encode(ByteBufAllocator alloc, Serialization serialization, long requestId, int deadlineMillis,
                          long sentNanos, String service, Method method, Object[] arguments,
                          Map<String, String> attachments) throws IOException {
        ByteBuf frame = Frame.start(alloc, Frame.FLAG_REQUEST | Frame.FLAG_TWO_WAY, 0, serialization.getId(),
                requestId, deadlineMillis);
        try {
            WireStrings.write(frame, service);
            WireStrings.write(frame, method.getName());
            WireStrings.write(frame, MethodTable.descriptor(method.getParameterTypes()));
            int countAt = frame.writerIndex();
            frame.writeShort(0);
            int count = 1;
            WireStrings.write(frame, SENT_AT);
            WireStrings.write(frame, Long.toString(sentNanos));
            for (Map.Entry<String, String> e : attachments.entrySet()) {
                if (SENT_AT.equals(e.getKey())) {
                    continue;
                }
                count++;
                WireStrings.write(frame, e.getKey());
                WireStrings.write(frame, e.getValue() == null ? "" : e.getValue());
            }
            frame.setShort(countAt, count);
            Type[] types = method.getGenericParameterTypes();
            Serialization.ObjectOutput out = serialization.serialize(new ByteBufOutputStream(frame));
            for (int i = 0; i < types.length; i++) {
                out.writeObject(arguments[i], types[i]);
            }
            out.flush();
            Frame.finish(frame);
            return frame;
        } catch (IOException | RuntimeException e) {
            frame.release();
            throw e;
        }
    }

    /** Reads the head; the body's reader index is left at the first argument. */
    static Head readHead(ByteBuf body) {
        String service = WireStrings.read(body, "service key");
        String methodName = WireStrings.read(body, "method name");
        String descriptor = WireStrings.read(body, "parameter descriptor");
        if (body.readableBytes() < 2) {
            throw new BadFrameBodyException("attachment count: missing (expected: 2 bytes)");
        }
        int count = body.readUnsignedShort();
        if (count > MAX_ATTACHMENTS) {
            throw new BadFrameBodyException("attachment count: " + count + " (expected: <= " + MAX_ATTACHMENTS + ")");
        }
        ImmutableMap.Builder<String, String> attachments = ImmutableMap.builderWithExpectedSize(count);
        long sentNanos = NOT_STAMPED;
        for (int i = 0; i < count; i++) {
            String key = WireStrings.read(body, "attachment key");
            String value = WireStrings.read(body, "attachment value");
            if (SENT_AT.equals(key)) {
                sentNanos = sentNanos(value);
            } else {
                attachments.put(key, value);
            }
        }
        return new Head(service, methodName, descriptor, attachments.buildKeepingLast(), sentNanos);
    }

    private static long sentNanos(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new BadFrameBodyException("attachment " + SENT_AT + ": " + value
                    + " (expected: the consumer's clock reading in ns, a decimal long)");
        }
    }

    /** Reads the arguments that follow the head, each as its declared generic parameter type. */
    static Object[] readArguments(ByteBuf body, Serialization serialization, Method method) {
        Type[] types = method.getGenericParameterTypes();
        Object[] arguments = new Object[types.length];
        try {
            Serialization.ObjectInput in = serialization.deserialize(new ByteBufInputStream(body));
            for (int i = 0; i < types.length; i++) {
                arguments[i] = in.readObject(types[i]);
                if (arguments[i] == null && method.getParameterTypes()[i].isPrimitive()) {
                    throw new BadFrameBodyException("argument " + i + " of " + method.getName()
                            + ": null (expected: a " + types[i].getTypeName() + ")");
                }
            }
            in.requireEnd();
        } catch (IOException | RuntimeException e) {
            if (e instanceof BadFrameBodyException bad) {
                throw bad;
            }
            throw new BadFrameBodyException("arguments of " + MethodTable.key(method.getName(),
                    method.getParameterTypes()) + ": " + e.getMessage(), e);
        }
        return arguments;
    }
}
