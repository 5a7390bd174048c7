package dev.weft.rpc.protocol.weft;

import java.util.concurrent.Executor;
import dev.weft.rpc.common.Deadline;
import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.AsyncTypes;
import com.google.common.base.Ticker;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
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
 * connections. Every call is asynchronous: {@link #invoke} sends it and returns a pending
 * {@link Result}, and no thread waits for the answer (a sync caller waits on its own thread, which
 * the call's {@link CallOptions#executor()} hands the answer to). The result ends with the
 * service's answer (a value, or an exception it threw, whatever its class or code), or with a
 * failure of the call, a non-business {@link RpcException}: NETWORK (connection lost), TIMEOUT
 * (the attempt's deadline), NOT_PROCESSED (provider busy or going away: safe to retry),
 * SERIALIZATION (an answer that cannot be read, or that the provider could not encode), CANCELLED.
 * Failures found before sending (no connection, arguments that cannot be encoded) are thrown.
 *
 * <p>Each attempt's deadline is the {@value #TIMEOUT_KEY} read at call time (the invocation's
 * {@code timeout} attachment, else the method-level then service-level key of the URL that applies,
 * {@link CallOptions#urlOf}, default {@value #DEFAULT_TIMEOUT} ms), or the call's own deadline
 * ({@code call-timeout}) when earlier. What is left of it travels in the frame header, with this
 * invoker's clock reading when it was left (so the provider places the deadline on its own clock
 * however late it reads the frame, {@link PeerClock}). When the
 * call ends without an answer after it was sent (deadline passed, cancelled by its caller), the
 * provider is told with a CANCEL event so that it skips the call if it has not started, or cancels
 * an async implementation's future. Thread-safe.
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
    /** Where calls end when the caller's options name no executor: the protocol's callback threads. */
    private final Executor callbacks;
    private final AtomicBoolean destroyed = new AtomicBoolean();

    WeftInvoker(Class<T> type, URL url, Serialization serialization, ConnectionGroup connections, Ticker ticker,
                Executor callbacks, Consumer<WeftInvoker<?>> onDestroy) {
        this.callbacks = callbacks;
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

    /**
     * Sends the call and returns at once a pending result, which ends with the answer, or with a
     * failure at the attempt's deadline, on a cancel, or when the connection closes; nothing waits.
     * The attempt's deadline is the earlier of {@code timeout} and the call's own
     * ({@link CallOptions#deadline()}); what is left of it travels in the frame. The result ends on
     * the call's executor ({@link CallOptions#executor()}, else this protocol's callback threads).
     * Failures found before anything was sent (no connection, arguments that do not encode) are thrown.
     */
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
        CallOptions options = invocation.getCallOptions();
        if (options.cancellation().isCancelled()) {
            throw new RpcException(RpcException.CANCELLED, "call of " + RpcInvocation.signature(invocation) + " to "
                    + url.getAddress() + " cancelled by its caller before it was sent");
        }
        long timeoutMillis = timeoutMillis(invocation);
        long deadlineNanos = deadlineNanos(options, timeoutMillis);
        ChannelState state = connections.acquire(service, deadlineNanos);
        long sentNanos = ticker.read();
        long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - sentNanos);
        if (remainingMillis <= 0) {
            throw timeout(invocation, timeoutMillis, "before it was sent");
        }
        Type returnType = invocation.getGenericReturnType() == Object.class
                ? AsyncTypes.valueType(method.getGenericReturnType()) : invocation.getGenericReturnType();
        Channel channel = state.channel();
        long id = state.nextId();
        ByteBuf frame;
        try {
            frame = RequestCodec.encode(channel.alloc(), serialization, id, (int) Math.min(Integer.MAX_VALUE, remainingMillis),
                    sentNanos, service, method, invocation.getArguments(), invocation.getAttachments());
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
        Executor executor = options.executor() != null ? options.executor() : callbacks;
        PendingCall call = new PendingCall(method, returnType, serialization, executor);
        state.register(id, call);
        call.cancelListener(options.cancellation().onCancel(() -> state.cancel(id, new RpcException(RpcException.CANCELLED,
                "call of " + RpcInvocation.signature(invocation) + " to " + url.getAddress() + " cancelled by its caller"))));
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
        return call.result();
    }

    /** The attempt's deadline on this invoker's ticker: {@code timeoutMillis} from now, or the call's own when earlier. */
    private long deadlineNanos(CallOptions options, long timeoutMillis) {
        long now = ticker.read();
        long deadline = now + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Deadline callDeadline = options.deadline();
        if (callDeadline != null) {
            long callLeft = callDeadline.timeRemaining(TimeUnit.NANOSECONDS);
            if (callLeft < deadline - now) {
                deadline = now + callLeft;
            }
        }
        return deadline;
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
            timeout = CallOptions.urlOf(this, invocation).getMethodParameter(invocation.getMethodName(), TIMEOUT_KEY,
                    (long) DEFAULT_TIMEOUT);
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
