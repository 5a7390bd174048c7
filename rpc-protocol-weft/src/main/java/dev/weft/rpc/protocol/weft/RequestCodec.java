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

    private RequestCodec() {
    }

    /** The head of a request: what to call and with which attachments. */
    record Head(String service, String methodName, String descriptor, Map<String, String> attachments) {
    }

    /** A complete request frame (two-way). */
    static ByteBuf encode(ByteBufAllocator alloc, Serialization serialization, long requestId, int deadlineMillis,
                          String service, Method method, Object[] arguments, Map<String, String> attachments)
            throws IOException {
        ByteBuf frame = Frame.start(alloc, Frame.FLAG_REQUEST | Frame.FLAG_TWO_WAY, 0, serialization.getId(),
                requestId, deadlineMillis);
        try {
            WireStrings.write(frame, service);
            WireStrings.write(frame, method.getName());
            WireStrings.write(frame, MethodTable.descriptor(method.getParameterTypes()));
            frame.writeShort(attachments.size());
            for (Map.Entry<String, String> e : attachments.entrySet()) {
                WireStrings.write(frame, e.getKey());
                WireStrings.write(frame, e.getValue() == null ? "" : e.getValue());
            }
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
        for (int i = 0; i < count; i++) {
            attachments.put(WireStrings.read(body, "attachment key"), WireStrings.read(body, "attachment value"));
        }
        return new Head(service, methodName, descriptor, attachments.buildKeepingLast());
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
