package dev.weft.rpc.bootstrap;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.cluster.DynamicDirectory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.protocol.filter.CallContext;
import dev.weft.rpc.protocol.filter.ContextFilter;
import dev.weft.rpc.proxy.ProxyFactory;
import dev.weft.rpc.registry.ProviderRules;
import dev.weft.rpc.registry.Registry;
import dev.weft.rpc.registry.RegistryDirectory;
import dev.weft.rpc.registry.RegistryFactory;
import dev.weft.rpc.registry.RegistryHealth;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.bootstrap.References.Reference;
import dev.weft.rpc.bootstrap.References.ReferenceKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Exports and refers services in a few lines, wiring the extension loader, protocols, registry,
 * cluster, mock and proxy modules together:
 *
 * <pre>{@code
 * try (Weft weft = Weft.builder().registry("zookeeper://127.0.0.1:2181").application("shop").build()) {
 *     weft.export(GreetingService.class, new GreetingServiceImpl(), "weft://127.0.0.1:20880?weight=200");
 *     GreetingService greetings = weft.refer(GreetingService.class, "loadbalance=p2c&timeout=300");
 *     greetings.greet("ada");
 * }
 * }</pre>
 *
 * <p>Every URL and key is checked when {@code export} or {@code refer} is called, never at the
 * first call: unknown extension names, malformed numbers and mocks that cannot fit a method throw
 * {@link IllegalArgumentException} (or {@link RpcException} from the module that rejects them);
 * a key that no module on the class path declares (in the registry URL too) is logged once with
 * the closest known key.
 *
 * <p>{@link #close()} releases only what this instance created and still holds: it unregisters all
 * its services, then unexports them together (gracefully: the protocol drains calls in flight),
 * then releases its references and closes the director if it created it. {@link #release(Object)}
 * lets one reference go earlier. Thread-safe.
 */
public final class Weft implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Weft.class);
    private static final String IN_JVM = "injvm";
    /** The key of rpc-mock, named here only to say when that module is missing. */
    private static final String MOCK_KEY = "mock";
    private static final String MOCK_ARTIFACT = "dev.weft:rpc-mock";
    /** The provider key bounding a service's drain (declared by the protocol that reads it, e.g. rpc-protocol-weft). */
    private static final String SHUTDOWN_TIMEOUT_KEY = "shutdown-timeout";
    /** The drain bound of a URL without {@value #SHUTDOWN_TIMEOUT_KEY}: the {@code weft} protocol's default. */
    private static final long DEFAULT_SHUTDOWN_TIMEOUT_MILLIS = 10_000;
    /** Beyond a drain's own bound: closing its connections and threads. */
    private static final long DRAIN_GRACE_MILLIS = 2_000;

    private final ExtensionDirector director;
    private final boolean ownsDirector;
    private final String application;
    private final String host;
    private final KnownKeys knownKeys;
    private final Registry registry;
    /** The consumers nodes of {@link #registry}'s refers (null without a registry). */
    private final ConsumerNodes consumerNodes;
    private final Deque<AutoCloseable> owned = new ArrayDeque<>();
    private final References references = new References();
    /** Held for the whole of {@link #close()}, so a second caller waits for the first to finish. */
    private final Object closeLock = new Object();
    private final Thread shutdownHook;
    private boolean closed;

    private Weft(Builder builder) {
        this.ownsDirector = builder.director == null;
        this.director = ownsDirector ? new ExtensionDirector(Weft.class.getClassLoader()) : builder.director;
        this.application = builder.application;
        this.host = builder.host;
        try {
            this.knownKeys = KnownKeys.load(director.getClassLoader());
            if (builder.registryUrl != null) {
                for (String unknown : knownKeys.unknownParameters(builder.registryUrl)) {
                    LOG.warn("registry: unknown URL key {} in {}; no module on the class path reads it", unknown,
                            builder.registryUrl);
                }
            }
            this.registry = builder.registryUrl == null ? null : openRegistry(builder.registryUrl);
            this.consumerNodes = registry == null ? null : new ConsumerNodes(registry::register, this::unregister);
            if (builder.shutdownHook) {
                shutdownHook = new Thread(this::close, "weft-shutdown");
                Runtime.getRuntime().addShutdownHook(shutdownHook);
            } else {
                shutdownHook = null;
            }
        } catch (RuntimeException | Error e) {
            releaseAfterFailedBuild(e);
            throw e;
        }
    }

    /**
     * Releases, newest first, what a failed construction created (the director included when it
     * created it); a release's own failure is added to {@code failure} as suppressed.
     */
    private void releaseAfterFailedBuild(Throwable failure) {
        Deque<AutoCloseable> toClose = closeAndTakeOwned();
        if (ownsDirector) {
            toClose.addLast(director::close);
        }
        for (AutoCloseable closeable : toClose) {
            try {
                closeable.close();
            } catch (Exception | LinkageError e) {
                failure.addSuppressed(e);
            }
        }
    }

    private Registry openRegistry(URL registryUrl) {
        var factories = director.getExtensionLoader(RegistryFactory.class);
        if (registryUrl.getProtocol() == null || !factories.hasExtension(registryUrl.getProtocol())) {
            throw new IllegalArgumentException("registry: " + registryUrl + " (expected: a URL whose scheme is one of "
                    + factories.getSupportedExtensions() + ")");
        }
        Registry opened = factories.getAdaptiveExtension().getRegistry(registryUrl);
        remember(opened::close);
        return opened;
    }

    /** A builder with no registry, application {@code weft}, consumer host 127.0.0.1. */
    public static Builder builder() {
        return new Builder();
    }

    /** The director every extension of this instance comes from. */
    public ExtensionDirector director() {
        return director;
    }

    /**
     * Exports {@code implementation} at {@code providerUrl} (e.g. {@code weft://127.0.0.1:20880?weight=200};
     * port 0 binds a free port). The URL's path defaults to the interface name. The returned
     * exporter's {@link Exporter#unexport()} (idempotent) unregisters the service first when there is
     * a registry, then unexports it, and this instance stops holding it; {@link #close()} unexports
     * only the services still exported.
     *
     * @throws IllegalArgumentException when the URL or one of its keys is invalid
     * @throws RpcException             when the protocol cannot export it (e.g. the port is taken)
     * @throws IllegalStateException    when this instance is closed
     */
    public <T> Exporter<T> export(Class<T> type, T implementation, String providerUrl) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(implementation, "implementation");
        Objects.requireNonNull(providerUrl, "providerUrl");
        requireOpen();
        requireInterface(type);
        URL url = ServiceUrls.provider(URL.valueOf(providerUrl), type, application, System.currentTimeMillis());
        requireProtocol(url, providerUrl, "export " + type.getName());
        warnUnknownKeys(url, type, "export " + type.getName());
        CallTimeKeys.checkTimeouts(url, "export " + type.getName());
        Invoker<T> invoker = director.getExtensionLoader(ProxyFactory.class).getAdaptiveExtension()
                .getInvoker(implementation, type, url);
        CallTimeKeys.checkWeights(invoker, type, "export " + type.getName());
        Exporter<T> exported = director.getExtensionLoader(Protocol.class).getAdaptiveExtension().export(invoker);
        URL bound = exported.getInvoker().getUrl();
        boolean registered = registry != null && !IN_JVM.equals(url.getProtocol());
        AtomicReference<ProviderRules> rules = new AtomicReference<>();
        Consumer<URL> unregister = registeredUrl -> {
            ProviderRules subscribed = rules.getAndSet(null);
            if (subscribed != null) {
                subscribed.close();
            }
            unregister(registeredUrl);
        };
        OwnedExporter<T> exporter = new OwnedExporter<>(
                registered ? new RegisteredExporter<>(exported, unregister, bound) : exported, this::forget);
        remember(exporter.handle());
        if (registered) {
            try {
                // the override rules addressed to this provider (executes) follow live
                rules.set(ProviderRules.subscribe(registry, bound, director));
                registry.register(bound);
            } catch (RuntimeException | Error e) {
                exporter.unexport();
                throw e;
            }
        }
        return exporter;
    }

    /** {@link #refer(Class, Map)} with parameters written as a URL query string ({@code k=v&k2=v2}). */
    public <T> T refer(Class<T> type, String consumerParameters) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(consumerParameters, "consumerParameters");
        return refer(type, parse(type, consumerParameters));
    }

    /**
     * A proxy of {@code type} calling the providers named by the key {@code url} (comma-separated
     * provider URLs) or, without that key, those the registry lists for the service (interface,
     * {@code group}, {@code version}), with the registry's override rules applied live. With
     * {@code check=true} (the default) it waits up to {@code timeout} for a first available
     * provider and fails naming the service and the registry if none appears.
     *
     * <p>Refers of the same type with the same parameters share one reference: the same proxy,
     * directory, subscription and {@code consumers} node. Each refer counts; {@link #release(Object)}
     * the proxy as many times to let the reference go before {@link #close()}.
     *
     * @throws IllegalArgumentException when a key is invalid or no provider source is given
     * @throws IllegalStateException    when {@code check=true} and no provider is available in time,
     *                                  or this instance is closed (a failed refer releases what it created)
     */
    public <T> T refer(Class<T> type, Map<String, String> consumerParameters) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(consumerParameters, "consumerParameters");
        return refer(type, consumerParameters, null);
    }

    /**
     * A proxy of {@code type} over {@code providers}, given as invokers, through the cluster
     * strategy, load balancer and mock that {@code consumerParameters} choose, as {@link #refer(Class,
     * String)} would over providers found by URL or registry: to test application code against the
     * scripted fakes of {@code rpc-testing} ({@code FakeProviders.invokers(...)}), or to call
     * providers found by other means. The invokers are called as given (no protocol filters are
     * added) and stay the caller's: neither {@link #release(Object)} nor {@link #close()} destroys
     * them; they release the rest. Refers of the same type with the same invokers and parameters
     * share one proxy.
     *
     * @throws IllegalArgumentException when a key is invalid, {@code providers} is empty, or the
     *                                  parameters also name providers ({@code url})
     * @throws IllegalStateException    when {@code check=true} and no given invoker is available
     *                                  within {@code timeout}, or this instance is closed
     */
    public <T> T refer(Class<T> type, List<? extends Invoker<T>> providers, String consumerParameters) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(providers, "providers");
        Objects.requireNonNull(consumerParameters, "consumerParameters");
        List<Invoker<T>> given = List.copyOf(providers);
        if (given.isEmpty()) {
            throw new IllegalArgumentException("refer " + type.getName() + ": providers [] (expected: one invoker or more)");
        }
        Map<String, String> parameters = parse(type, consumerParameters);
        if (parameters.containsKey(DirectProviders.URL_KEY)) {
            throw new IllegalArgumentException("refer " + type.getName() + ": key " + DirectProviders.URL_KEY
                    + " with given providers (expected: the providers given, or url=, not both)");
        }
        return refer(type, parameters, given);
    }

    /** The consumer parameters written as a URL query string ({@code k=v&k2=v2}). */
    private Map<String, String> parse(Class<?> type, String consumerParameters) {
        return URL.valueOf("consumer://" + host + "/" + type.getName()
                + (consumerParameters.isEmpty() ? "" : "?" + consumerParameters)).getParameters();
    }

    /** A shared or new reference; {@code given} providers (or null: by URL or registry). */
    private <T> T refer(Class<T> type, Map<String, String> consumerParameters, List<Invoker<T>> given) {
        requireOpen();
        requireInterface(type);
        URL consumerUrl = ServiceUrls.consumer(host, type, application, consumerParameters);
        requireMockSupport(consumerUrl, type);
        ReferenceKey key = new ReferenceKey(type, consumerUrl, given);
        Reference shared = references.acquire(key);
        if (shared != null) {
            return type.cast(shared.proxy());
        }
        warnUnknownKeys(consumerUrl, type, "refer " + type.getName());
        CallTimeKeys.checkTimeouts(consumerUrl, "refer " + type.getName());
        List<AutoCloseable> acquired = new ArrayList<>();
        T proxy;
        try {
            proxy = refer(type, consumerUrl, given, acquired);
        } catch (RuntimeException | Error e) {
            release(acquired);
            throw e;
        }
        Reference kept = references.add(key, new Reference(proxy, List.copyOf(acquired)));
        if (kept.proxy() != proxy) {
            release(acquired); // an identical refer racing this one was kept first: share it
        }
        return type.cast(kept.proxy());
    }

    /**
     * Releases one {@code refer} of {@code proxy}: when it was the last of the refers sharing it,
     * what they created is released at once (the subscription, the {@code consumers} node, the
     * directory, the connections of {@code url=} providers), and calls through the proxy fail.
     * After {@link #close()} it does nothing (closing released everything).
     *
     * @throws IllegalArgumentException when {@code proxy} is not a reference of this instance, or
     *                                  was released as many times as it was referred
     */
    public void release(Object proxy) {
        Objects.requireNonNull(proxy, "proxy");
        if (isClosed()) {
            return;
        }
        Reference last = references.release(proxy);
        if (last != null) {
            release(last.acquired());
        }
    }

    /**
     * Refers {@code type} over {@code given} invokers, or else the {@code url=} providers or the
     * registry's, adding what it creates to {@code acquired} (and to what this instance owns).
     */
    private <T> T refer(Class<T> type, URL consumerUrl, List<Invoker<T>> given, List<AutoCloseable> acquired) {
        Directory<T> directory;
        Supplier<List<Invoker<T>>> invokers;
        Supplier<String> source;
        boolean fromRegistry = given == null && !consumerUrl.hasParameter(DirectProviders.URL_KEY) && registry != null;
        if (given != null) {
            DynamicDirectory<T> direct = new DynamicDirectory<>(type, consumerUrl);
            direct.setInvokers(given);
            directory = direct;
            invokers = () -> given;
            source = () -> "the " + given.size() + " provider invoker(s) given";
        } else if (!fromRegistry) {
            DirectProviders<T> providers = DirectProviders.refer(director, type, consumerUrl);
            remember(acquired, providers::destroy);
            DynamicDirectory<T> direct = new DynamicDirectory<>(type, consumerUrl);
            direct.setInvokers(providers.invokers());
            directory = direct;
            invokers = providers::invokers;
            String described = DirectProviders.describe(consumerUrl);
            source = () -> described;
        } else {
            RegistryDirectory<T> listed = RegistryDirectory.builder(type, consumerUrl, registry).director(director)
                    .unknownKeys(rule -> knownKeys.unknownParameters(rule, type)).build();
            directory = listed;
            invokers = listed::getInvokers;
            source = this::describeRegistry;
        }
        remember(acquired, directory::destroy);
        Invoker<T> clusterInvoker = director.getExtensionLoader(Cluster.class).getAdaptiveExtension().join(directory);
        remember(acquired, clusterInvoker::destroy);
        ProviderCheck.await(type, consumerUrl, invokers, source, this::isClosed);
        if (fromRegistry) {
            // After the check: a refer that fails it waits no registration of its consumer node.
            URL consumerNode = consumerUrl.addParameter(ServiceUrls.CATEGORY_KEY, ServiceUrls.CONSUMERS_CATEGORY);
            consumerNodes.acquire(consumerNode);
            remember(acquired, () -> consumerNodes.release(consumerNode));
        }
        return director.getExtensionLoader(ProxyFactory.class).getAdaptiveExtension().getProxy(withCallerContext(clusterInvoker));
    }

    /** The registry and, when it cannot be read, why: the first thing to look at when no provider is found. */
    private String describeRegistry() {
        String described = "registry " + registry.getUrl();
        if (registry instanceof RegistryHealth health) {
            RegistryHealth.State state = health.getState();
            if (state == RegistryHealth.State.CONNECTING) {
                return described + ", which was never connected (no provider list was ever read from it)";
            }
            if (state != RegistryHealth.State.CONNECTED) {
                return described + ", not connected now (" + state + ")";
            }
        }
        return described;
    }

    /** {@code clusterInvoker}, taking the caller's {@code CallContext} first when its consumer chain has the context filter. */
    private <T> Invoker<T> withCallerContext(Invoker<T> clusterInvoker) {
        Filter contextFilter = director.getExtensionLoader(Filter.class).getExtension(ContextFilter.NAME, false);
        return FilterChain.filters(clusterInvoker.getUrl(), FilterChain.CONSUMER, director).contains(contextFilter)
                ? new CallerContextInvoker<>(clusterInvoker, CallContext.of(director))
                : clusterInvoker;
    }

    /**
     * Releases what this instance created; idempotent. Services first: every one still exported is
     * unregistered, then all drain their calls in flight together (waited for at most the longest
     * {@code shutdown-timeout} among them plus 2 s); then the rest, newest first
     * (references, the registry, the director if this instance created it). A call made while
     * another thread is closing returns once that close has finished.
     */
    @Override
    public void close() {
        synchronized (closeLock) {
            Deque<AutoCloseable> toClose = closeAndTakeOwned();
            if (toClose == null) {
                return;
            }
            closeExporters(toClose);
            toClose.forEach(Weft::closeQuietly);
            if (ownsDirector) {
                director.close();
            }
            if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
                try {
                    Runtime.getRuntime().removeShutdownHook(shutdownHook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running or about to: nothing left to remove
                }
            }
        }
    }

    /**
     * Takes the exporters out of {@code toClose} and closes them: first every service is
     * unregistered, so consumers stop choosing any of them at once, then all drain their calls in
     * flight together, each on its own thread, rather than one after the other while the rest stay
     * registered and keep receiving calls. Waits for the drains up to the longest
     * {@value #SHUTDOWN_TIMEOUT_KEY} among them plus {@link #DRAIN_GRACE_MILLIS}; a drain still
     * running then is logged and left to finish on its (daemon) thread, so a stuck unexport cannot
     * hold {@code close()} forever.
     */
    private static void closeExporters(Deque<AutoCloseable> toClose) {
        List<OwnedExporter<?>.Handle> exporters = new ArrayList<>();
        for (var it = toClose.iterator(); it.hasNext(); ) {
            if (it.next() instanceof OwnedExporter<?>.Handle exporter) {
                exporters.add(exporter);
                it.remove();
            }
        }
        if (exporters.isEmpty()) {
            return;
        }
        for (OwnedExporter<?>.Handle exporter : exporters) {
            try {
                exporter.unregister();
            } catch (RuntimeException e) {
                LOG.warn("Weft close: unregistering {} failed: {}", exporter, e.toString(), e);
            }
        }
        long boundMillis = DRAIN_GRACE_MILLIS;
        List<Thread> draining = new ArrayList<>();
        for (OwnedExporter<?>.Handle exporter : exporters) {
            boundMillis = Math.max(boundMillis, exporter.url().getParameter(SHUTDOWN_TIMEOUT_KEY, DEFAULT_SHUTDOWN_TIMEOUT_MILLIS)
                    + DRAIN_GRACE_MILLIS);
            Thread thread = new Thread(() -> closeQuietly(exporter), "weft-close-" + draining.size());
            thread.setDaemon(true);
            thread.start();
            draining.add(thread);
        }
        joinUntil(draining, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(boundMillis), boundMillis);
    }

    /** Waits for {@code threads} until {@code deadline} (a {@link System#nanoTime()}); logs those still running then. */
    private static void joinUntil(List<Thread> threads, long deadline, long boundMillis) {
        boolean interrupted = false;
        for (Thread thread : threads) {
            while (thread.isAlive()) {
                long leftNanos = deadline - System.nanoTime();
                if (leftNanos <= 0) {
                    break;
                }
                try {
                    TimeUnit.NANOSECONDS.timedJoin(thread, leftNanos);
                } catch (InterruptedException e) {
                    interrupted = true; // the wait is bounded: finish it, keep the status
                }
            }
        }
        long stuck = threads.stream().filter(Thread::isAlive).count();
        if (stuck > 0) {
            LOG.warn("Weft close: {} of {} service(s) still unexporting after {} ms; closing the rest without them",
                    stuck, threads.size(), boundMillis);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Unregisters {@code url}, unless this instance is closing while the registry is unreachable:
     * then each unregister would wait the registry's connection timeout, and closing the registry
     * (the oldest resource, so released last) unregisters everything in one go instead.
     */
    private void unregister(URL url) {
        if (isClosed() && !registry.isAvailable()) {
            return;
        }
        registry.unregister(url);
    }

    private boolean isClosed() {
        synchronized (owned) {
            return closed;
        }
    }

    private void requireOpen() {
        if (isClosed()) {
            throw closedError();
        }
    }

    private static IllegalStateException closedError() {
        return new IllegalStateException("Weft: closed (expected: an open instance)");
    }

    /**
     * Owns {@code closeable} until {@link #close()}; when this instance is already closed, releases
     * it at once and throws, so nothing created by a call racing {@code close()} is left open.
     */
    private void remember(AutoCloseable closeable) {
        boolean refused;
        synchronized (owned) {
            refused = closed;
            if (!refused) {
                owned.push(closeable);
            }
        }
        if (refused) {
            closeQuietly(closeable);
            throw closedError();
        }
    }

    /** Stops owning {@code closeable}: its user released it. */
    private void forget(AutoCloseable closeable) {
        synchronized (owned) {
            owned.removeFirstOccurrence(closeable);
        }
    }

    private void remember(List<AutoCloseable> acquired, AutoCloseable closeable) {
        acquired.add(closeable);
        remember(closeable);
    }

    /** Marks this instance closed and hands over what it owns, newest first; null when it was closed already. */
    private Deque<AutoCloseable> closeAndTakeOwned() {
        synchronized (owned) {
            if (closed) {
                return null;
            }
            closed = true;
            Deque<AutoCloseable> taken = new ArrayDeque<>(owned);
            owned.clear();
            return taken;
        }
    }

    /** Releases, newest first, those of {@code acquired} still owned (a racing {@code close()} releases the rest). */
    private void release(List<AutoCloseable> acquired) {
        Deque<AutoCloseable> mine = new ArrayDeque<>();
        synchronized (owned) {
            for (AutoCloseable closeable : acquired) {
                if (owned.removeFirstOccurrence(closeable)) {
                    mine.push(closeable);
                }
            }
        }
        mine.forEach(Weft::closeQuietly);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception | LinkageError e) {
            LOG.warn("Weft close: releasing {} failed: {}", closeable, e.toString(), e);
        }
    }

    private void requireProtocol(URL url, String written, String what) {
        String protocol = url.getProtocol();
        var loader = director.getExtensionLoader(Protocol.class);
        if (protocol == null || !loader.hasExtension(protocol)) {
            throw new IllegalArgumentException(what + ": protocol " + protocol + " in providerUrl " + written
                    + " (expected: protocol://host:port with a protocol among " + loader.getSupportedExtensions() + ")");
        }
    }

    /**
     * A {@code mock} key without the module that reads it would silently do nothing (a fallback
     * the user counts on would never run), so it fails the refer naming the missing artifact.
     */
    private void requireMockSupport(URL consumerUrl, Class<?> type) {
        if (knownKeys.declared().containsKey(MOCK_KEY)) {
            return;
        }
        for (String key : consumerUrl.getParameters().keySet()) {
            if (key.equals(MOCK_KEY) || key.endsWith("." + MOCK_KEY)) {
                throw new IllegalArgumentException("refer " + type.getName() + ": " + key + "=" + consumerUrl.getParameter(key)
                        + " needs the artifact " + MOCK_ARTIFACT + ", which is not on the class path (expected: "
                        + MOCK_ARTIFACT + " on the class path, as rpc-bootstrap brings it unless excluded; without it"
                        + " no mock runs)");
            }
        }
    }

    private void warnUnknownKeys(URL url, Class<?> type, String what) {
        for (String unknown : knownKeys.unknownParameters(url, type)) {
            LOG.warn("{}: unknown URL key {} in {}; no module on the class path reads it", what, unknown, url);
        }
    }

    private static void requireInterface(Class<?> type) {
        if (!type.isInterface()) {
            throw new IllegalArgumentException("service type: " + type.getName() + " (expected: an interface)");
        }
    }

    /** Configures a {@link Weft}; not thread-safe, used once. */
    public static final class Builder {

        private URL registryUrl;
        private String application = "weft";
        private String host = "127.0.0.1";
        private ExtensionDirector director;
        private boolean shutdownHook;

        private Builder() {
        }

        /**
         * Where services are registered and providers found, e.g. {@code zookeeper://127.0.0.1:2181}
         * (a user and password in the URL, {@code zookeeper://user:password@host:port}, turn on
         * digest authentication). Without a registry, {@code refer} takes provider URLs in the key
         * {@code url}.
         *
         * @throws IllegalArgumentException when the URL is malformed, or carries {@code username} or
         *         {@code password} as parameters (a Dubbo habit that would silently mean no
         *         authentication; the message names the {@code user:password@host} form)
         */
        public Builder registry(String registryUrl) {
            URL parsed = URL.valueOf(Objects.requireNonNull(registryUrl, "registryUrl"));
            for (String key : List.of("username", "password")) {
                if (parsed.hasParameter(key)) {
                    throw new IllegalArgumentException("registry: parameter " + key + " in "
                            + parsed.removeParameter("password") + (parsed.hasParameter("password") ? " (password removed)" : "")
                            + " (expected: the user and password in the address, " + parsed.getProtocol()
                            + "://user:password@host:port; as parameters they are not read, and would mean no authentication)");
                }
            }
            this.registryUrl = parsed;
            return this;
        }

        /** The application name registered with every service (key {@code application}). */
        public Builder application(String application) {
            this.application = requireText(application, "application");
            return this;
        }

        /**
         * The host a consumer registers as its own address (default 127.0.0.1; addresses are never
         * guessed from the machine's network cards).
         *
         * @throws IllegalArgumentException when {@code host} is blank or not a valid URL host
         */
        public Builder host(String host) {
            requireText(host, "host");
            try {
                URL.valueOf("consumer://" + host);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("host: '" + host + "' (expected: a host name or address a URL can carry,"
                        + " e.g. 127.0.0.1): " + e.getMessage(), e);
            }
            this.host = host;
            return this;
        }

        /**
         * Uses {@code director} (left open by {@link Weft#close()}) instead of creating one.
         *
         * @throws IllegalArgumentException when {@code director} is already closed
         */
        public Builder director(ExtensionDirector director) {
            Objects.requireNonNull(director, "director");
            if (director.isClosed()) {
                throw new IllegalArgumentException("director: " + director + " (expected: an open director)");
            }
            this.director = director;
            return this;
        }

        /** Closes the {@link Weft} from a JVM shutdown hook too. */
        public Builder closeOnShutdown() {
            this.shutdownHook = true;
            return this;
        }

        public Weft build() {
            return new Weft(this);
        }

        private static String requireText(String value, String what) {
            Objects.requireNonNull(value, what);
            if (value.isBlank()) {
                throw new IllegalArgumentException(what + ": '" + value + "' (expected: a non-blank value)");
            }
            return value;
        }
    }
}
