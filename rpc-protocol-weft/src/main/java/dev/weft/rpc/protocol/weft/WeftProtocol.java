package dev.weft.rpc.protocol.weft;

import com.google.common.base.Strings;
import com.google.common.base.Ticker;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.ThrottledLog;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.protocol.ProviderAddress;
import dev.weft.rpc.protocol.Serialization;
import dev.weft.rpc.protocol.ServiceKey;
import dev.weft.rpc.protocol.filter.ExecuteLimits;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The {@code weft} protocol: calls over TCP with Netty, a fixed binary frame header, bodies in the
 * service's pinned serialization (default {@code json}), deadlines on the wire, heartbeats,
 * reconnects and graceful shutdown. See {@code docs/rpc-protocol-weft.md} for the wire format and
 * every key.
 *
 * <p>Export: one server per bound {@code host:port}, shared by the services exported on it; port 0
 * binds a free port, which the exporter's invoker URL then carries. That URL is
 * {@link ProviderAddress#registeredUrl}: a {@code 0.0.0.0} export needs {@code register-host} (the
 * address consumers are told). Services on one port are told apart by their {@link ServiceKey}
 * (interface, {@code group}, {@code version}); a consumer reaches only the export with its own key.
 * Refer: one group of connections per provider address and connection settings, shared by every
 * invoker to it.
 *
 * <p>Thread-safe. {@link #destroy()} (also run by {@link #close()}, so an
 * {@code ExtensionDirector} closes it) unexports everything gracefully and releases every socket
 * and thread.
 */
public final class WeftProtocol implements Protocol, ExtensionDirectorAware, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WeftProtocol.class);

    /** The port tools suggest for a weft provider. */
    public static final int DEFAULT_PORT = 20880;
    /** Provider and consumer key: largest frame body in bytes. */
    public static final String PAYLOAD_KEY = "payload";
    public static final int DEFAULT_PAYLOAD = 8 * 1024 * 1024;
    /** Provider and consumer key: heartbeat interval in ms; a peer silent for 3 intervals is closed. */
    public static final String HEARTBEAT_KEY = "heartbeat";
    public static final int DEFAULT_HEARTBEAT = 15_000;
    /** Provider and consumer key (declared by rpc-protocol): the service's serialization, pinned on every frame. */
    private static final String SERIALIZATION_KEY = "serialization";
    /** Consumer key: Netty event loop threads of this protocol's client side (default: the number of cores). */
    public static final String CLIENT_IO_THREADS_KEY = "client-iothreads";
    /**
     * The least time between two lines of one repeated warning (a bad peer, a provider that cannot
     * be reached, late answers): an outage or a misbehaving peer gives a line per interval with a
     * count, not one per call.
     */
    static final Duration WARNING_INTERVAL = Duration.ofSeconds(10);
    /** Threads that end async calls: twice the processors, at least 4. */
    static final int CALLBACK_THREADS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

    private final Ticker ticker;
    private final Random random;
    private final ExceptionCodec exceptions = new ExceptionCodec();
    private final ThrottledLog clientWarnings;
    /** "cannot connect" of every client connection: one limit for all addresses. */
    private final ThrottledLog connectFailures;
    private final Map<String, WeftServer> servers = new ConcurrentHashMap<>();
    private final Map<ClientSettings, ConnectionGroup> groups = new ConcurrentHashMap<>();
    private final Set<WeftExporter<?>> exporters = ConcurrentHashMap.newKeySet();
    private final Set<WeftInvoker<?>> invokers = ConcurrentHashMap.newKeySet();
    private volatile ExtensionDirector director;
    private EventLoopGroup clientGroup;
    /** Ends consumers' async calls (decoding answers, running what follows them); created with the client threads. */
    private ThreadPoolExecutor callbacks;
    /** The transport of {@link #clientGroup}, which its channels must share. */
    private Transport clientTransport;
    private boolean destroyed;

    /** The protocol with the system clock and a fresh random source (for reconnect jitter). */
    public WeftProtocol() {
        this(Ticker.systemTicker(), new Random());
    }

    /** The protocol with an injected clock and random source. */
    public WeftProtocol(Ticker ticker, Random random) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.random = Objects.requireNonNull(random, "random");
        this.clientWarnings = new ThrottledLog(LoggerFactory.getLogger(ClientConnection.class), ticker, WARNING_INTERVAL);
        this.connectFailures = new ThrottledLog(LoggerFactory.getLogger(ClientConnection.class), ticker, WARNING_INTERVAL);
    }

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        this.director = director;
    }

    @Override
    public int getDefaultPort() {
        return DEFAULT_PORT;
    }

    static int payload(URL url) {
        int payload = url.getParameter(PAYLOAD_KEY, DEFAULT_PAYLOAD);
        checkArgument(payload > 0, "%s: %s (expected: > 0 bytes) in %s", PAYLOAD_KEY, payload, url);
        return payload;
    }

    static int heartbeat(URL url) {
        int heartbeat = url.getParameter(HEARTBEAT_KEY, DEFAULT_HEARTBEAT);
        checkArgument(heartbeat > 0, "%s: %s (expected: > 0 ms) in %s", HEARTBEAT_KEY, heartbeat, url);
        return heartbeat;
    }

    /** The service key of {@code url}; the interface is {@code type}'s name when the URL names none. */
    static ServiceKey serviceKey(URL url, Class<?> type) {
        return ServiceKey.of(Strings.isNullOrEmpty(url.getServiceInterface()) ? url.withPath(type.getName()) : url);
    }

    private Serialization serialization(URL url) {
        String name = url.getParameter(SERIALIZATION_KEY, "json");
        ExtensionDirector d = director == null ? ExtensionDirector.getDefault() : director;
        try {
            return d.getExtensionLoader(Serialization.class).getExtension(name);
        } catch (RuntimeException e) {
            throw new RpcException(SERIALIZATION_KEY + ": " + name + " in " + url + " (expected: one of "
                    + d.getExtensionLoader(Serialization.class).getSupportedExtensions() + ")", e);
        }
    }

    @Override
    public <T> Exporter<T> export(Invoker<T> invoker) throws RpcException {
        Objects.requireNonNull(invoker, "invoker");
        URL url = invoker.getUrl();
        String host = url.getHost();
        if (Strings.isNullOrEmpty(host)) {
            throw new RpcException("export host: empty in " + url + " (expected: an address to bind, e.g. 127.0.0.1)");
        }
        try {
            // checks the register host before anything binds; the real port comes later
            ProviderAddress.registeredUrl(url, url.getPort() == 0 ? 1 : url.getPort());
        } catch (IllegalArgumentException e) {
            throw new RpcException(e.getMessage(), e);
        }
        Serialization serialization = serialization(url);
        ServiceTypes.check("export", invoker.getInterface(), serialization);
        ServerSettings settings;
        try {
            settings = ServerSettings.of(url, url.getPort());
        } catch (IllegalArgumentException e) {
            throw new RpcException(e.getMessage(), e);
        }
        ExportedService service = new ExportedService(serviceKey(url, invoker.getInterface()), invoker, serialization,
                ExecuteLimits.of(director == null ? ExtensionDirector.getDefault() : director));
        WeftServer server;
        synchronized (this) {
            checkNotDestroyed();
            String key = host + ":" + url.getPort();
            server = url.getPort() == 0 ? null : servers.get(key);
            if (server != null) {
                try {
                    server.settings().checkJoinable(url, server.port());
                } catch (IllegalArgumentException e) {
                    throw new RpcException("export: " + e.getMessage(), e);
                }
            }
            if (server == null) {
                server = new WeftServer(settings, ticker);
                servers.put(host + ":" + server.port(), server);
                LOG.info("weft server listening on {}:{}", host, server.port());
            }
            server.add(service);
        }
        URL exported = ProviderAddress.registeredUrl(url, server.port());
        WeftExporter<T> exporter = new WeftExporter<>(invoker, exported, server, service, this::unexported);
        exporters.add(exporter);
        return exporter;
    }

    private void unexported(WeftExporter<?> exporter) {
        exporters.remove(exporter);
        WeftServer server = exporter.server();
        server.remove(exporter.service());
        synchronized (this) {
            if (!server.isEmpty()) {
                return;
            }
            servers.values().remove(server);
            // Under the lock that export binds under: an export to this port from now on binds a
            // new server, and finds the port free.
            server.stopAccepting();
        }
        server.close();
    }

    @Override
    public <T> Invoker<T> refer(Class<T> type, URL url) throws RpcException {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(url, "url");
        ClientSettings settings;
        try {
            settings = ClientSettings.of(url);
        } catch (IllegalArgumentException e) {
            throw new RpcException(e.getMessage(), e);
        }
        Serialization serialization = serialization(url);
        ServiceTypes.check("refer", type, serialization);
        synchronized (this) {
            checkNotDestroyed();
            ConnectionGroup group = groups.get(settings);
            if (group == null || !group.retain()) {
                group = newGroup(settings, url);
                group.retain();
                groups.put(settings, group);
            }
            WeftInvoker<T> invoker = new WeftInvoker<>(type, url, serialization, group, ticker, callbacks(), this::destroyed);
            invokers.add(invoker);
            return invoker;
        }
    }

    /**
     * The threads that end consumers' calls made without an executor of their own (async calls):
     * {@link #CALLBACK_THREADS} daemon threads {@code weft-callback-N}, started on demand and stopped
     * after a minute idle. A caller's callback that blocks holds one of them, never a network thread.
     */
    private synchronized Executor callbacks() {
        if (callbacks == null) {
            callbacks = new ThreadPoolExecutor(CALLBACK_THREADS, CALLBACK_THREADS, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                    new DefaultThreadFactory("weft-callback", true));
            callbacks.allowCoreThreadTimeOut(true);
        }
        return callbacks;
    }

    private ConnectionGroup newGroup(ClientSettings settings, URL url) {
        if (clientGroup == null) {
            int threads = url.getParameter(CLIENT_IO_THREADS_KEY, Runtime.getRuntime().availableProcessors());
            clientTransport = Transport.best();
            clientGroup = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("weft-client", true),
                    clientTransport.ioHandlerFactory());
        }
        List<ClientConnection> connections = new ArrayList<>();
        for (int i = 0; i < settings.connections(); i++) {
            connections.add(new ClientConnection(settings, clientGroup, clientTransport, new Backoff(100, 10_000, 0.2, random),
                    ticker, clientWarnings, connectFailures, exceptions));
        }
        return new ConnectionGroup(settings, connections);
    }

    private void destroyed(WeftInvoker<?> invoker) {
        invokers.remove(invoker);
        ConnectionGroup group = invoker.connections();
        if (group.release()) {
            groups.remove(group.settings(), group);
        }
    }

    private void checkNotDestroyed() {
        if (destroyed) {
            throw new RpcException("weft protocol: destroyed (expected: a protocol that is open)");
        }
    }

    /** Unexports every service (gracefully), destroys every invoker, then stops the client threads. */
    @Override
    public void destroy() {
        EventLoopGroup group;
        ThreadPoolExecutor ending;
        synchronized (this) {
            if (destroyed) {
                return;
            }
            destroyed = true;
            group = clientGroup;
            ending = callbacks;
        }
        List<WeftServer> closing = new ArrayList<>(servers.values());
        servers.clear();
        exporters.forEach(WeftExporter::markUnexported);
        exporters.clear();
        closing.parallelStream().forEach(WeftServer::close);
        new ArrayList<>(invokers).forEach(WeftInvoker::destroy);
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        if (ending != null) {
            ending.shutdown(); // calls still ending finish; a call ending later ends on the thread that ends it
        }
    }

    @Override
    public void close() {
        destroy();
    }
}
