package dev.weft.rpc.protocol.weft;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Serialization;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A consumer invoker for one service at one provider address, over the address's shared
 * connections. The service's answers (a value, or an exception it threw) come back in the
 * {@link Result}; every other failure is thrown as a non-business {@link RpcException}: NETWORK
 * (no connection, connection lost), TIMEOUT, NOT_PROCESSED (provider busy or going away: safe to
 * retry), SERIALIZATION. Each call's deadline is the {@value #TIMEOUT_KEY} read at call time (the
 * invocation's {@code timeout} attachment, else the URL's method-level then service-level key,
 * default {@value #DEFAULT_TIMEOUT} ms). The URL is the refer URL, which carries the consumer's
 * keys; a registry's view whose override changed the timeout hands it over as the attachment. The
 * deadline travels in the frame header, and the call fails with a
 * TIMEOUT {@link RpcException} when it passes. When the call ends without an answer after it was
 * sent (deadline passed, calling thread interrupted), the provider is told with a CANCEL event so
 * that it skips the call if it has not started. Thread-safe.
 */
final class WeftInvoker<T> implements Invoker<T> {

    /** Consumer and method key: each attempt's deadline in ms. */
    static final String TIMEOUT_KEY = "timeout";
    static final int DEFAULT_TIMEOUT = 1000;

    private final Class<T> type;
    private final URL url;
    private final String service;
    private final MethodTable methods;
    private final Serialization serialization;
    private final ConnectionGroup connections;
    private final Ticker ticker;
    private final Consumer<WeftInvoker<?>> onDestroy;
    private final AtomicBoolean destroyed = new AtomicBoolean();

    WeftInvoker(Class<T> type, URL url, Serialization serialization, ConnectionGroup connections, Ticker ticker,
                Consumer<WeftInvoker<?>> onDestroy) {
        this.type = type;
        this.url = url;
        this.service = WeftProtocol.serviceKey(url, type).toString();
        this.methods = new MethodTable(type);
        this.serialization = serialization;
        this.connections = connections;
        this.ticker = ticker;
        this.onDestroy = onDestroy;
    }

    @Override
    public Class<T> getInterface() {
        return type;
    }

    @Override
    public URL getUrl() {
        return url;
    }

    @Override
    public boolean isAvailable() {
        return !destroyed.get() && connections.isAvailable(service);
    }

    ConnectionGroup connections() {
        return connections;
    }

    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        Objects.requireNonNull(invocation, "invocation");
        if (destroyed.get()) {
            throw new RpcException(RpcException.NOT_PROCESSED, "invoker destroyed: " + url);
        }
        Method method = methods.find(invocation.getMethodName(), invocation.getParameterTypes());
        if (method == null) {
            throw new RpcException("method: " + RpcInvocation.signature(invocation) + " (expected: one of "
                    + methods.available() + " of " + type.getName() + ")");
        }
        long timeoutMillis = timeoutMillis(invocation);
        long deadlineNanos = ticker.read() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        ChannelState state = connections.acquire(service, deadlineNanos);
        long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - ticker.read());
        if (remainingMillis <= 0) {
            throw timeout(invocation, timeoutMillis, "before it was sent");
        }
        Type returnType = invocation.getGenericReturnType() == Object.class ? method.getGenericReturnType()
                : invocation.getGenericReturnType();
        Channel channel = state.channel();
        long id = state.nextId();
        ByteBuf frame;
        try {
            frame = RequestCodec.encode(channel.alloc(), serialization, id, (int) Math.min(Integer.MAX_VALUE, remainingMillis),
                    service, method, invocation.getArguments(), invocation.getAttachments());
        } catch (IOException | RuntimeException e) {
            throw new RpcException(RpcException.SERIALIZATION_EXCEPTION, "arguments of "
                    + RpcInvocation.signature(invocation) + " to " + url.getAddress() + ": " + e.getMessage(), e);
        }
        if (frame.readableBytes() - Frame.HEADER_LENGTH > connections.settings().payload()) {
            int length = frame.readableBytes() - Frame.HEADER_LENGTH;
            frame.release();
            throw new RpcException(RpcException.SERIALIZATION_EXCEPTION, "request body of "
                    + RpcInvocation.signature(invocation) + ": " + length + " bytes (expected: <= payload "
                    + connections.settings().payload() + ")");
        }
        PendingCall call = new PendingCall(method, returnType, serialization);
        state.register(id, call);
        // One task on the event loop both writes and arms the deadline: a single hand-off per call.
        // The answer is read on that same loop, so it never finds the deadline unarmed.
        EventLoop loop = channel.eventLoop();
        Runnable send = () -> {
            channel.writeAndFlush(frame).addListener(f -> {
                if (f.isSuccess()) {
                    call.written();
                } else {
                    // A request not wholly written is never a complete frame at the provider: not run.
                    state.fail(id, RpcException.NOT_PROCESSED, "sending to " + url.getAddress() + " failed (not sent,"
                            + " safe to retry): " + f.cause());
                }
            });
            call.deadline(loop.schedule(
                    () -> state.cancel(id, timeout(invocation, timeoutMillis, "waiting for the answer")),
                    remainingMillis, TimeUnit.MILLISECONDS));
        };
        if (loop.inEventLoop()) {
            send.run();
        } else {
            try {
                loop.execute(send);
            } catch (RejectedExecutionException e) {
                frame.release();
                state.fail(id, RpcException.NOT_PROCESSED, "not sent to " + url.getAddress() + ": the client is closed");
            }
        }
        Result result = await(call, state, id);
        if (result.getException() instanceof RpcException failure && !failure.isBiz()) {
            // Not the service's own answer (network, deadline, not processed...): thrown, so that
            // cluster strategies see a failure they may retry rather than a business result.
            throw failure;
        }
        return result;
    }

    private Result await(PendingCall call, ChannelState state, long id) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return call.future().get();
                } catch (InterruptedException e) {
                    interrupted = true;
                    state.cancel(id, new RpcException(RpcException.NETWORK_EXCEPTION,
                            "the calling thread was interrupted while waiting for " + url.getAddress()));
                } catch (ExecutionException e) {
                    return RpcResult.ofException(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private long timeoutMillis(Invocation invocation) {
        String attached = invocation.getAttachment(TIMEOUT_KEY);
        long timeout;
        if (attached != null && !attached.isEmpty()) {
            try {
                timeout = Long.parseLong(attached.trim());
            } catch (NumberFormatException e) {
                throw new RpcException("attachment " + TIMEOUT_KEY + ": " + attached + " (expected: milliseconds > 0)");
            }
        } else {
            timeout = url.getMethodParameter(invocation.getMethodName(), TIMEOUT_KEY, (long) DEFAULT_TIMEOUT);
        }
        if (timeout <= 0) {
            throw new RpcException(TIMEOUT_KEY + ": " + timeout + " (expected: milliseconds > 0) for "
                    + invocation.getMethodName() + " in " + url);
        }
        return timeout;
    }

    private RpcException timeout(Invocation invocation, long timeoutMillis, String phase) {
        return new RpcException(RpcException.TIMEOUT_EXCEPTION, "timeout: " + RpcInvocation.signature(invocation)
                + " on " + url.getAddress() + " got no answer within " + timeoutMillis + " ms (" + phase
                + "; key: " + TIMEOUT_KEY + ")");
    }

    @Override
    public void destroy() {
        if (destroyed.compareAndSet(false, true)) {
            onDestroy.accept(this);
        }
    }

    @Override
    public String toString() {
        return "WeftInvoker[" + type.getName() + " -> " + url.getAddress() + "]";
    }
}
