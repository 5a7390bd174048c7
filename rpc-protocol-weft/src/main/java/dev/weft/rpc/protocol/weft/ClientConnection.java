package dev.weft.rpc.protocol.weft;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.ThrottledLog;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.AttributeKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * One consumer connection slot to a provider address: at most one channel at a time, replaced
 * after a loss with jittered exponential backoff until {@link #close()}. Thread-safe.
 */
final class ClientConnection {

    private static final Logger LOG = LoggerFactory.getLogger(ClientConnection.class);

    private final ClientSettings settings;
    private final EventLoopGroup group;
    private final Backoff backoff;
    private final Ticker ticker;
    private final ThrottledLog warnings;
    /**
     * Failed connection attempts, which repeat with backoff while an address is down: one limit
     * shared by every connection of the protocol, so a thousand stale addresses give one line per
     * interval with a count, not a thousand.
     */
    private final ThrottledLog connectFailures;
    /** Answers arriving after their caller gave up: expected after a timeout, so counted at DEBUG. */
    private final ThrottledLog lateAnswers;
    private final ExceptionCodec exceptions;
    private final Bootstrap bootstrap;
    private volatile ChannelState current;
    private ChannelFuture connecting;
    private int failedAttempts;
    private boolean reconnectScheduled;
    private boolean everConnected;
    /** The first channel of a {@code lazy} connection, which counts before the provider is heard on it. */
    private volatile ChannelState firstLazyChannel;
    private volatile boolean closed;

    ClientConnection(ClientSettings settings, EventLoopGroup group, Transport transport, Backoff backoff, Ticker ticker,
                     ThrottledLog warnings, ThrottledLog connectFailures, ExceptionCodec exceptions) {
        this.settings = settings;
        this.group = group;
        this.backoff = backoff;
        this.ticker = ticker;
        this.warnings = warnings;
        this.connectFailures = connectFailures;
        this.lateAnswers = new ThrottledLog(LOG, ticker, WeftProtocol.WARNING_INTERVAL);
        this.exceptions = exceptions;
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(transport.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.ALLOCATOR, ChannelAllocator.INSTANCE)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, settings.connectTimeoutMillis())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ChannelState state = new ChannelState(ch, settings.address());
                        ch.pipeline()
                                .addLast(new FlushConsolidationHandler(256, true))
                                .addLast(new IdleStateHandler(settings.heartbeatMillis() * 3L,
                                        settings.heartbeatMillis(), 0, TimeUnit.MILLISECONDS))
                                .addLast(FrameDecoder.forConsumer(settings.payload()))
                                .addLast(new PeerLiveness(state, ticker, settings.livenessMillis(), ClientConnection.this))
                                .addLast(new ClientHandler(state, ClientConnection.this));
                        ch.attr(ClientConnection.STATE).set(state);
                    }
                });
        if (!settings.lazy()) {
            connect();
        }
    }

    private static final AttributeKey<ChannelState> STATE = AttributeKey.valueOf("weft.state");

    /** Rate-limited warnings of this protocol's client side (dead peers, oversized answers). */
    ThrottledLog warnings() {
        return warnings;
    }

    /** Rate-limited DEBUG lines counting answers that arrived after their call ended. */
    ThrottledLog lateAnswers() {
        return lateAnswers;
    }

    /** The monotonic clock of this protocol's client side, whose readings PINGs and requests carry. */
    Ticker ticker() {
        return ticker;
    }

    ExceptionCodec exceptions() {
        return exceptions;
    }

    /** The current channel state, or {@code null} while disconnected. */
    ChannelState current() {
        return current;
    }

    /**
     * Usable for the service {@code service} (its key): a connection is open and the provider has not
     * announced it is going away. Before the first connection is made only a {@code lazy} one counts
     * as usable (not yet tried, or its first attempt, which a call started, still in progress): a
     * call waits for it. An eager connection is unusable until it is made, so a cluster routes
     * around a provider that cannot be reached and a {@code check} sees only connected providers.
     * Once an attempt failed or the connection was lost, it is unusable until a reconnect succeeds.
     * A connection counts only once the provider has answered on it ({@link PeerLiveness}): the
     * handshake alone proves nothing. Except a lazy connection's first channel, which counts from
     * the handshake, as it did while being made, until {@link PeerLiveness} finds it unresponsive
     * (nothing heard within twice the liveness bound): calls picked it before it connected, and
     * were it to drop out between the handshake and the first answer, a burst of calls made right
     * after a lazy refer would find every provider in that gap and fail with none available.
     */
    boolean isAvailable(String service) {
        ChannelState state = current;
        if (state == null) {
            synchronized (this) {
                if (closed || everConnected || failedAttempts > 0 || !settings.lazy()) {
                    return false;
                }
                return connecting == null || !connecting.isDone();
            }
        }
        return state.isAvailableFor(service)
                || state == firstLazyChannel && !state.isUnresponsive() && state.isUsableFor(service);
    }

    /**
     * A usable channel, connecting (and waiting up to {@code deadlineNanos}) when there is none.
     *
     * @throws RpcException NOT_PROCESSED when no connection could be made in time (nothing was sent)
     */
    ChannelState acquire(long deadlineNanos) {
        ChannelState state = current;
        if (state != null && state.isUsable()) {
            return state;
        }
        ChannelFuture future = connect();
        long waitNanos = deadlineNanos - ticker.read();
        if (waitNanos > 0) {
            future.awaitUninterruptibly(waitNanos, TimeUnit.NANOSECONDS);
        }
        if (future.isSuccess()) {
            // Waiters may wake before the listener that publishes the channel has run.
            state = future.channel().attr(STATE).get();
        } else {
            state = current;
        }
        if (state != null && state.isUsable()) {
            return state;
        }
        Throwable cause = future.isDone() ? future.cause() : null;
        throw new RpcException(RpcException.NOT_PROCESSED, "no connection to " + settings.address()
                + (cause == null ? " within the call's deadline" : ": " + cause) + "; the call was not sent", cause);
    }

    /** Starts connecting unless a connection is open or being opened; returns that attempt. */
    synchronized ChannelFuture connect() {
        if (closed) {
            throw new RpcException(RpcException.NETWORK_EXCEPTION, "connection to " + settings.address() + " is closed");
        }
        // An attempt that succeeded is in use even before its listener has published it as current:
        // a call arriving in between must wait for that channel, not open a second one.
        if (connecting != null && (!connecting.isDone() || isOpen(current)
                || connecting.isSuccess() && connecting.channel().isActive())) {
            return connecting;
        }
        ChannelFuture attempt = bootstrap.connect(settings.host(), settings.port());
        connecting = attempt;
        attempt.addListener(f -> connected(attempt));
        return attempt;
    }

    private void connected(ChannelFuture attempt) {
        Channel channel = attempt.channel();
        synchronized (this) {
            if (attempt.isSuccess() && !closed && channel.isActive()) {
                if (failedAttempts > 0) {
                    LOG.info("weft client: connected to {} after {} failed attempt(s)", settings.address(), failedAttempts);
                } else {
                    LOG.debug("weft client: connected to {}", settings.address());
                }
                failedAttempts = 0;
                ChannelState state = channel.attr(STATE).get();
                if (!everConnected && settings.lazy()) {
                    firstLazyChannel = state;
                }
                everConnected = true;
                current = state;
                return;
            }
            if (!attempt.isSuccess()) {
                failedAttempts++;
            }
        }
        if (!attempt.isSuccess() && !closed) {
            Throwable cause = attempt.cause();
            connectFailures.warn("weft client: cannot connect to " + settings.address() + ": "
                    + (cause.getMessage() == null ? cause : cause.getMessage())
                    + " (trying again with backoff, up to every 10 s)");
        }
        if (attempt.isSuccess()) {
            channel.close();
        }
        // a failed attempt, or a channel that closed before it was published
        scheduleReconnect();
    }

    /** Called on the event loop when a channel of this slot closed: reconnect unless closed. */
    void channelClosed(ChannelState state) {
        synchronized (this) {
            if (current == state) {
                current = null;
            }
        }
        scheduleReconnect();
    }

    private void scheduleReconnect() {
        long delay;
        synchronized (this) {
            if (closed || reconnectScheduled) {
                return;
            }
            reconnectScheduled = true;
            delay = backoff.delayMillis(failedAttempts);
        }
        group.next().schedule(() -> {
            synchronized (this) {
                reconnectScheduled = false;
                if (closed || isOpen(current)) {
                    return;
                }
            }
            connect();
        }, delay, TimeUnit.MILLISECONDS);
    }

    private static boolean isOpen(ChannelState state) {
        return state != null && state.channel().isActive();
    }

    int pendingCount() {
        ChannelState state = current;
        return state == null ? 0 : state.pendingCount();
    }

    /** Closes the channel; pending calls fail at once; no reconnect. */
    void close() {
        ChannelFuture attempt;
        synchronized (this) {
            closed = true;
            attempt = connecting;
        }
        if (attempt != null) {
            attempt.cancel(false);
            attempt.channel().close().syncUninterruptibly();
        }
    }
}
