package dev.weft.rpc.protocol.weft;

import com.google.common.base.Ticker;
import com.google.common.collect.ImmutableSortedSet;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.ThrottledLog;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * One listening socket with the services exported on it. Netty's event loop decodes frames; the
 * services run on a {@link QueueFirstExecutor}: about one awake thread per core taking calls from a
 * queue of {@code queues}, more (up to {@code threads}) while queued calls wait because services
 * block; when the threads and the queue are full, a call is answered NOT_PROCESSED at once.
 *
 * <p>Shutdown is graceful: new connections are refused, consumers are told (GOAWAY), calls not
 * yet started are answered NOT_PROCESSED, calls running finish up to a bound, consumers close
 * their connections, then what is left and the threads are released.
 * Thread-safe.
 */
final class WeftServer {

    private static final Logger LOG = LoggerFactory.getLogger(WeftServer.class);

    /**
     * Reads of at most 64 KiB each that one connection makes per turn of its event loop before the
     * loop serves its other connections (Netty's default is 16, 1 MiB); a connection with more to
     * read is read again on the next turn. Peers uploading megabytes at once, kept or discarded,
     * would otherwise keep a real consumer's requests on the same loop waiting behind a megabyte
     * of reading each (the trickling phase of {@code HostilePeersBenchmark}, docs/benchmarks.md).
     */
    private static final int READS_PER_TURN = 2;

    private final ServerSettings settings;
    private final Ticker ticker;
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final QueueFirstExecutor executor;
    private final Map<String, ExportedService> services = new ConcurrentHashMap<>();
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private final PeerWarnings warnings;
    private final RequestBudget requestBudget;
    private final ExceptionCodec exceptions = new ExceptionCodec();
    private final Channel serverChannel;
    private final int port;
    private volatile boolean draining;

    /** Binds {@code settings.bindAddress()}; throws {@link RpcException} when it cannot. */
    WeftServer(ServerSettings settings, Ticker ticker) {
        this.settings = settings;
        this.ticker = ticker;
        this.warnings = new PeerWarnings(LOG, ticker, WeftProtocol.WARNING_INTERVAL);
        this.requestBudget = new RequestBudget(settings.requestBudget());
        String name = "weft-server-" + (settings.bindAddress().getPort() == 0 ? "any" : settings.bindAddress().getPort());
        Transport transport = Transport.best();
        this.bossGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(name + "-accept"),
                transport.ioHandlerFactory());
        this.workerGroup = new MultiThreadIoEventLoopGroup(settings.ioThreads(), new DefaultThreadFactory(name + "-io"),
                transport.ioHandlerFactory());
        this.executor = new QueueFirstExecutor(Runtime.getRuntime().availableProcessors(), settings.threads(),
                settings.queues(), Duration.ofSeconds(60), ticker,
                new ThreadFactoryBuilder().setNameFormat(name + "-biz-%d").setDaemon(true).build(),
                new ThreadFactoryBuilder().setNameFormat(name + "-biz-watchdog").setDaemon(true)
                        .setUncaughtExceptionHandler(threadStartFailures(name, ticker)).build());
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(transport.serverSocketChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOCATOR, ChannelAllocator.INSTANCE)
                .childOption(ChannelOption.RECVBUF_ALLOCATOR,
                        new AdaptiveRecvByteBufAllocator().maxMessagesPerRead(READS_PER_TURN))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(new FlushConsolidationHandler(256, true))
                                .addLast(new IdleStateHandler(settings.heartbeatMillis() * 3L, 0, 0,
                                        TimeUnit.MILLISECONDS));
                        ConnectionLimits limits = new ConnectionLimits(settings.connectionCalls(), requestBudget,
                                settings.minUploadRate(), warnings);
                        ch.pipeline()
                                .addLast(FrameDecoder.forProvider(settings.payload(), limits, ticker))
                                .addLast(limits)
                                .addLast(new ServerHandler(WeftServer.this));
                    }
                });
        try {
            this.serverChannel = bootstrap.bind(settings.bindAddress()).syncUninterruptibly().channel();
            this.port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
        } catch (Exception e) { // Netty rethrows the bind's IOException unchecked
            releaseThreads();
            throw new RpcException(RpcException.NETWORK_EXCEPTION, "bind: " + settings.bindAddress()
                    + " (expected: a free local address and port): " + e, e);
        }
    }

    /** The port actually bound (the chosen one when the URL asked for 0). */
    int port() {
        return port;
    }

    ServerSettings settings() {
        return settings;
    }

    Ticker ticker() {
        return ticker;
    }

    /**
     * What the watchdog does when it cannot start a business thread (the JVM or the OS refuses
     * one): it tries again a few milliseconds later, so the failure is logged at most once per
     * interval, with a count, instead of a stack trace per attempt.
     */
    private static Thread.UncaughtExceptionHandler threadStartFailures(String name, Ticker ticker) {
        ThrottledLog log = new ThrottledLog(LOG, ticker, WeftProtocol.WARNING_INTERVAL);
        return (thread, failure) -> log.warn(name + ": the business threads' watchdog failed (queued calls wait for"
                + " a running thread): " + failure);
    }

    QueueFirstExecutor executor() {
        return executor;
    }

    ExceptionCodec exceptions() {
        return exceptions;
    }

    /** This server's warnings about its peers, rate-limited per kind. */
    PeerWarnings warnings() {
        return warnings;
    }

    boolean isDraining() {
        return draining;
    }

    /** The service with this key (its text form, as requests carry it), or {@code null}. */
    ExportedService service(String key) {
        return services.get(key);
    }

    /** The keys of the services exported here, sorted (for error messages). */
    Set<String> serviceKeys() {
        return ImmutableSortedSet.copyOf(services.keySet());
    }

    void channelOpened(Channel channel) {
        channels.add(channel);
        if (draining) {
            channel.writeAndFlush(Frame.event(channel.alloc(), Frame.EVENT_GOAWAY, new byte[0]));
        }
    }

    void channelClosed(Channel channel) {
        channels.remove(channel);
    }

    /**
     * Adds a service; {@link RpcException} when its key (interface, group, version) is taken.
     * Connected consumers are told it is served, so those told earlier that it went away (it was
     * unexported here before) use it again over the connections they have.
     */
    void add(ExportedService service) {
        ExportedService previous = services.putIfAbsent(service.key().toString(), service);
        if (previous != null) {
            throw new RpcException("export: " + service.key() + " on port " + port()
                    + " (expected: a service key (interface, group, version) not exported yet; exported: "
                    + services.keySet() + ")");
        }
        byte[] key = service.key().toString().getBytes(StandardCharsets.UTF_8);
        for (Channel channel : channels) {
            channel.writeAndFlush(Frame.event(channel.alloc(), Frame.EVENT_SERVING, key), channel.voidPromise());
        }
    }

    /**
     * Unexports one service gracefully: consumers are told, calls of it that have not started are
     * answered NOT_PROCESSED, running ones get up to {@code shutdown-timeout}; when that runs out,
     * its calls still queued (every thread busy) are answered NOT_PROCESSED at once rather than
     * whenever a thread frees.
     */
    void remove(ExportedService service) {
        service.startClosing();
        byte[] key = service.key().toString().getBytes(StandardCharsets.UTF_8);
        for (Channel channel : channels) {
            channel.writeAndFlush(Frame.event(channel.alloc(), Frame.EVENT_GOAWAY, key));
        }
        awaitZero(service::inFlight, shutdownDeadline(), "call(s) of " + service.key() + " still running or queued");
        answerNotRun(executor.removeQueued(task -> task instanceof ServerHandler.Call call && call.service() == service));
        services.remove(service.key().toString(), service);
    }

    boolean isEmpty() {
        return services.isEmpty();
    }

    /**
     * Closes gracefully, then releases threads. The port is released first, so new connections are
     * refused; consumers are told (GOAWAY); calls running get up to {@code shutdown-timeout} to
     * finish, and within the same bound each consumer closes its connection once nothing it sent
     * on it is pending. Closing a connection before its consumer does could cut off a request
     * already on its way, leaving its caller unsure whether it ran; requests that arrive meanwhile
     * are answered NOT_PROCESSED.
     */
    void close() {
        draining = true;
        for (ExportedService service : services.values()) {
            service.startClosing();
        }
        stopAccepting();
        awaitRegistrations();
        for (Channel channel : channels) {
            channel.writeAndFlush(Frame.event(channel.alloc(), Frame.EVENT_GOAWAY, new byte[0]));
        }
        long deadline = shutdownDeadline();
        awaitZero(() -> services.values().stream().mapToInt(ExportedService::inFlight).sum(), deadline,
                "call(s) still running or queued");
        answerNotRun(executor.shutdownNow());
        awaitZero(channels::size, deadline, "connection(s) not closed by their consumers");
        closeChannels();
        releaseThreads();
        LOG.info("weft server on port {} closed", port);
    }

    /**
     * Closes the connections left and waits (boundedly) until they are closed: a close passes
     * through the pipeline, so answers written just before it are flushed to the socket first.
     * Stopping the event loops instead would close the sockets directly, dropping those answers.
     */
    private void closeChannels() {
        List<ChannelFuture> closing = channels.stream().map(Channel::close).toList();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (ChannelFuture close : closing) {
            close.awaitUninterruptibly(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Calls still queued when {@code shutdown-timeout} ran out (every thread busy) are answered
     * NOT_PROCESSED at once, before any connection closes: they never ran, so their consumers may
     * retry them anywhere.
     */
    private void answerNotRun(List<Runnable> notStarted) {
        for (Runnable task : notStarted) {
            if (task instanceof ServerHandler.Call call) {
                call.notRun("shutting down: shutdown-timeout " + settings.shutdownTimeoutMillis()
                        + " ms passed before a thread was free to run it; not run");
            }
        }
        if (!notStarted.isEmpty()) {
            LOG.warn("weft server on port {}: {} queued call(s) answered NOT_PROCESSED at shutdown: every thread was busy",
                    port, notStarted.size());
        }
    }

    /**
     * Closes the listening socket, which frees the port: new connections are refused from now on
     * (a consumer tries another provider at once), so none can arrive while the event loops stop
     * and be left open without a loop. Idempotent.
     */
    void stopAccepting() {
        serverChannel.close().syncUninterruptibly();
    }

    /**
     * Waits until the connections accepted before the listening socket closed are registered with
     * their event loops (and so in {@link #channels}): each loop runs a registration queued by the
     * accepting loop before a task queued after it.
     */
    private void awaitRegistrations() {
        for (EventExecutor loop : workerGroup) {
            loop.submit(() -> { }).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    private long shutdownDeadline() {
        return ticker.read() + TimeUnit.MILLISECONDS.toNanos(settings.shutdownTimeoutMillis());
    }

    /** Waits until {@code count} is 0 or the ticker reaches {@code deadline}; logs what is left then. */
    private void awaitZero(IntSupplier count, long deadline, String what) {
        int left;
        while ((left = count.getAsInt()) > 0 && ticker.read() - deadline < 0) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (left > 0) {
            LOG.warn("weft server on port {}: {} {} after shutdown-timeout {} ms; closing anyway",
                    port(), left, what, settings.shutdownTimeoutMillis());
        }
    }

    private void releaseThreads() {
        executor.shutdownNow();
        bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        workerGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        try {
            executor.awaitTermination(2, TimeUnit.SECONDS);
            bossGroup.terminationFuture().await(5, TimeUnit.SECONDS);
            workerGroup.terminationFuture().await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes {@code frame} unless it is larger than {@code payload}, in which case an error answer goes instead. */
    void answer(Channel channel, long requestId, ByteBuf frame) {
        int bodyLength = frame.readableBytes() - Frame.HEADER_LENGTH;
        if (bodyLength > settings.payload()) {
            frame.release();
            frame = ResponseCodec.status(channel.alloc(), requestId, Status.PAYLOAD_TOO_LARGE,
                    "response body: " + bodyLength + " bytes (expected: <= payload " + settings.payload() + ")");
        }
        channel.writeAndFlush(frame, channel.voidPromise());
    }
}
