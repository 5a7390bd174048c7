package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.AsyncTypes;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.protocol.Serialization;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;

/**
 * Response bodies: the value (status OK, written against the method's declared generic return
 * type; nothing for {@code void}), a {@link RemoteError} (status SERVICE_ERROR), or for every
 * other status a UTF-8 reason.
 */
final class ResponseCodec {

    private ResponseCodec() {
    }

    static ByteBuf value(ByteBufAllocator alloc, Serialization serialization, long requestId, Method method,
                         Object value) throws IOException {
        ByteBuf frame = Frame.start(alloc, 0, Status.OK, serialization.getId(), requestId, 0);
        try {
            Type valueType = AsyncTypes.valueType(method.getGenericReturnType());
            if (!isVoid(valueType)) {
                Serialization.ObjectOutput out = serialization.serialize(new ByteBufOutputStream(frame));
                out.writeObject(value, valueType);
                out.flush();
            }
            Frame.finish(frame);
            return frame;
        } catch (IOException | RuntimeException e) {
            frame.release();
            throw e;
        }
    }

    static ByteBuf error(ByteBufAllocator alloc, Serialization serialization, long requestId, RemoteError error)
            throws IOException {
        ByteBuf frame = Frame.start(alloc, 0, Status.SERVICE_ERROR, serialization.getId(), requestId, 0);
        try {
            Serialization.ObjectOutput out = serialization.serialize(new ByteBufOutputStream(frame));
            out.writeObject(error, RemoteError.class);
            out.flush();
            Frame.finish(frame);
            return frame;
        } catch (IOException | RuntimeException e) {
            frame.release();
            throw e;
        }
    }

    static ByteBuf status(ByteBufAllocator alloc, long requestId, int status, String reason) {
        ByteBuf frame = Frame.start(alloc, 0, status, (byte) 0, requestId, 0);
        frame.writeCharSequence(reason, StandardCharsets.UTF_8);
        Frame.finish(frame);
        return frame;
    }

    /**
     * The consumer's reading of a response to a call of {@code method}: the value as
     * {@code returnType}, the re-created exception, or an {@link RpcException} for a non-OK status.
     */
    static Result read(Frame frame, Serialization serialization, Method method, Type returnType,
                       ExceptionCodec exceptions, String remote) {
        ByteBuf body = frame.body();
        int status = frame.status();
        if (status != Status.OK && status != Status.SERVICE_ERROR) {
            String reason = WireStrings.rest(body);
            return RpcResult.ofException(new RpcException(Status.rpcCode(status),
                    Status.name(status) + " from " + remote + ": " + reason));
        }
        if (frame.serializationId() != serialization.getId()) {
            return RpcResult.ofException(new UndecodableAnswerException(
                    "response serialization id: " + frame.serializationId() + " from " + remote
                            + " (expected: " + serialization.getId() + ")", null));
        }
        try {
            if (status == Status.OK) {
                if (isVoid(returnType)) {
                    return RpcResult.of(null);
                }
                Object value = serialization.deserialize(new ByteBufInputStream(body)).readObject(returnType);
                return RpcResult.of(value);
            }
            RemoteError error = (RemoteError) serialization.deserialize(new ByteBufInputStream(body))
                    .readObject(RemoteError.class);
            return RpcResult.ofException(exceptions.recreate(error, method, remote));
        } catch (IOException | RuntimeException e) {
            return RpcResult.ofException(new UndecodableAnswerException(
                    "response to " + method.getName() + " from " + remote + ": " + e.getMessage(), e));
        }
    }

    static boolean isVoid(Type type) {
        return type == void.class || type == Void.class;
    }
}
