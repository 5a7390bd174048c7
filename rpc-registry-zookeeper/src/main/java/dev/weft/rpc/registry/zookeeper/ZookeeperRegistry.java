package dev.weft.rpc.registry.zookeeper;

import com.google.common.base.Splitter;
import com.google.common.base.Ticker;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import dev.weft.rpc.common.ThrottledLog;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.NotifyListener;
import dev.weft.rpc.registry.Registry;
import dev.weft.rpc.registry.RegistryHealth;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The {@code zookeeper} registry, on Curator. Nodes follow Dubbo's layout,
 * {@code /<root>/<encoded interface>/<category>/<encoded full URL>}, so {@code root=dubbo} reads
 * (and writes) a Dubbo 2.x registry.
 *
 * <p><b>Registering.</b> A URL is registered under its {@code category} (default
 * {@code providers}) as an ephemeral node, or a persistent one with {@code dynamic=false}. The node
 * is kept: it is created again when it is deleted and when the registry gets a new session, and a
 * node left by this registry's own expired session is replaced at once (see {@link Registration}).
 *
 * <p><b>Subscribing.</b> Each folder named by the subscription's {@code category} (comma list,
 * default {@code providers}) has one persistent watch shared by all subscriptions of this
 * registry; ZooKeeper's event thread only queues a read on this registry's worker thread. Each
 * listener gets the full current list of each category, serially, latest list first-class: an
 * older list never follows a newer one, and an empty category is one {@code empty://} URL. While
 * ZooKeeper is unreachable or the session is lost nothing is delivered, so listeners keep their
 * last lists; after reconnecting the folders are read again. After this registry's own session
 * was lost, an empty {@code providers} folder is not delivered for {@value #EMPTY_GRACE_KEY} ms
 * (the providers lost theirs too and have not registered again yet; see {@link CategoryWatcher}). Providers and consumers are kept only
 * when their {@code group} and {@code version} match the subscriber's.
 *
 * <p><b>Security.</b> With {@code zookeeper://user:password@host:port} the client authenticates
 * with ZooKeeper's digest scheme and creates nodes readable by anyone and writable only by that
 * identity. The password is never logged ({@link URL#toString()} hides it).
 *
 * <p>Registry URL keys: {@value #ROOT_KEY} (default {@value #DEFAULT_ROOT}), {@value #SESSION_KEY}
 * (ms, default {@value #DEFAULT_SESSION_MS}), {@value #TIMEOUT_KEY} (connection timeout, ms,
 * default {@value #DEFAULT_TIMEOUT_MS}), {@value #BACKUP_KEY} (more {@code host:port} of the
 * ensemble, comma list), {@value #JUTE_MAXBUFFER_KEY} (largest response in bytes, default
 * ZooKeeper's {@code jute.maxbuffer}, 1048575), {@value #EMPTY_GRACE_KEY} (ms, default
 * {@value #DEFAULT_EMPTY_GRACE_MS}).
 *
 * <p>It is its own {@link RegistryHealth}, so a {@code RegistryDirectory} over it reports the
 * connection state and the time since the last successful read.
 *
 * <p>Thread-safe. It owns a Curator client, one worker thread and a notification pool (a thread
 * per subscription being notified at the moment, ended when idle, so a slow listener delays only itself);
 * {@link #close()} unregisters its dynamic URLs, stops every watch and releases all of them.
 */
public final class ZookeeperRegistry implements Registry, RegistryHealth {

    private static final Logger log = LoggerFactory.getLogger(ZookeeperRegistry.class);

    /** Registry URL key: the root node, one node name; {@code dubbo} reads a Dubbo 2.x registry. */
    public static final String ROOT_KEY = "root";
    public static final String DEFAULT_ROOT = "weft";
    /** Registry URL key: the session timeout asked for, ms (the server clamps it to 2-20 ticks). */
    public static final String SESSION_KEY = "session";
    public static final int DEFAULT_SESSION_MS = 60_000;
    /** Registry URL key: how long an operation waits for a connection, ms. */
    public static final String TIMEOUT_KEY = "timeout";
    public static final int DEFAULT_TIMEOUT_MS = 5_000;
    /** Registry URL key: further ensemble members, {@code host:port} comma list. */
    public static final String BACKUP_KEY = "backup";
    /** Registry URL key: the largest response the client accepts, bytes (ZooKeeper's {@code jute.maxbuffer}). */
    public static final String JUTE_MAXBUFFER_KEY = "jute-maxbuffer";
    /**
     * Registry URL key: after this registry lost its session and got a new one, for how long (ms) a
     * {@code providers} folder read empty does not replace the last list (providers register again
     * once they are connected too); 0 turns it off.
     */
    public static final String EMPTY_GRACE_KEY = "empty-grace";
    public static final int DEFAULT_EMPTY_GRACE_MS = 10_000;
    /** Registered URL key: {@code true} (default) registers an ephemeral node, {@code false} a persistent one. */
    public static final String DYNAMIC_KEY = "dynamic";

    private static final int DEFAULT_ZK_PORT = 2181;
    private static final Pattern BACKUP_MEMBER = Pattern.compile("[A-Za-z0-9._\\-\\[\\]:]+:([0-9]{1,5})");
    private static final int ZOOKEEPER_DEFAULT_JUTE_MAXBUFFER = 0xfffff;
    /** Room left in a create request for what is not the path: header, ACL, flags. */
    private static final int REQUEST_OVERHEAD = 1024;

    private final URL url;
    private final Ticker ticker;
    private final NodeLayout layout;
    private final int timeoutMs;
    private final int emptyGraceMs;
    private final int juteMaxBuffer;
    private final CuratorFramework client;
    private final ScheduledExecutorService worker;
    private final ExecutorService notifier;
    private final SessionHistory sessions = new SessionHistory();
    private final RateLimitedLog failures;
    private final Set<String> reportedBadNames = ConcurrentHashMap.newKeySet();
    private final ConcurrentMap<String, Registration> registrations = new ConcurrentHashMap<>();
    private final Map<SubscriptionKey, Subscription> subscriptions = new HashMap<>();
    private final Map<String, CategoryWatcher> watchers = new HashMap<>();
    private volatile ZookeeperHealth.State state = ZookeeperHealth.State.CONNECTING;
    private volatile long lastReadNanos;
    private volatile boolean everRead;
    /** Whether the client was ever connected: before that, nothing is asked of ZooKeeper (see {@link #register}). */
    private volatile boolean everConnected;
    private final long builtNanos;
    private volatile boolean closed;
    private final CountDownLatch released = new CountDownLatch(1);

    /** A registry on {@code url} ({@code zookeeper://[user:password@]host:port?...}) with the system clock. */
    public ZookeeperRegistry(URL url) {
        this(url, Ticker.systemTicker());
    }

    /**
     * A registry on {@code url}; {@code ticker} measures the time since the last read.
     * Connects in the background: ZooKeeper need not be reachable yet.
     *
     * @throws IllegalArgumentException if a key of {@code url} has a bad value
     */
    public ZookeeperRegistry(URL url, Ticker ticker) {
        this.url = Objects.requireNonNull(url, "url");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        for (String key : List.of("username", "password")) {
            checkArgument(!url.hasParameter(key), "%s: a parameter of %s (expected: zookeeper://user:password@host:port;"
                    + " as parameters they are not read, and would mean no authentication)", key,
                    url.removeParameter("password"));
        }
        String root = url.getParameter(ROOT_KEY, DEFAULT_ROOT);
        // "/zookeeper" is reserved for the server (quotas, configuration); applications must not use it.
        checkArgument(root.matches("[A-Za-z0-9._-]+") && !root.equals(".") && !root.equals("..")
                        && !root.equals("zookeeper"),
                "%s: %s (expected: one node name of letters, digits, '.', '-' or '_', other than zookeeper, such as"
                        + " weft or dubbo) in %s", ROOT_KEY, root, url);
        this.layout = new NodeLayout(root);
        int sessionMs = url.getParameter(SESSION_KEY, DEFAULT_SESSION_MS);
        checkArgument(sessionMs > 0, "%s: %s (expected: > 0 ms) in %s", SESSION_KEY, sessionMs, url);
        this.timeoutMs = url.getParameter(TIMEOUT_KEY, DEFAULT_TIMEOUT_MS);
        checkArgument(timeoutMs > 0, "%s: %s (expected: > 0 ms) in %s", TIMEOUT_KEY, timeoutMs, url);
        this.emptyGraceMs = url.getParameter(EMPTY_GRACE_KEY, DEFAULT_EMPTY_GRACE_MS);
        checkArgument(emptyGraceMs >= 0, "%s: %s (expected: >= 0 ms) in %s", EMPTY_GRACE_KEY, emptyGraceMs, url);
        int juteMaxBuffer = url.getParameter(JUTE_MAXBUFFER_KEY,
                Integer.getInteger(ZKClientConfig.JUTE_MAXBUFFER, ZOOKEEPER_DEFAULT_JUTE_MAXBUFFER));
        checkArgument(juteMaxBuffer >= 1024, "%s: %s (expected: >= 1024 bytes) in %s",
                JUTE_MAXBUFFER_KEY, juteMaxBuffer, url);
        this.juteMaxBuffer = juteMaxBuffer;
        String connectString = connectString(url);
        DigestAcl acl = DigestAcl.of(url);

        this.failures = new RateLimitedLog(log, ticker, 30, TimeUnit.SECONDS);
        this.worker = Executors.newSingleThreadScheduledExecutor(threads("weft-zk-registry-%d"));
        // Threads as needed, ended when idle: a listener stuck in notify holds one thread, never the others' turn.
        this.notifier = Executors.newCachedThreadPool(threads("weft-zk-notify-%d"));

        ZKClientConfig clientConfig = new ZKClientConfig();
        clientConfig.setProperty(ZKClientConfig.JUTE_MAXBUFFER, Integer.toString(juteMaxBuffer));
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs(sessionMs)
                .connectionTimeoutMs(timeoutMs)
                .retryPolicy(new ExponentialBackoffRetry(100, 3, 1_000))
                .zkClientConfig(clientConfig)
                // The ensemble tracker would replace the addresses given with those in the servers' configuration.
                .ensembleTracker(false)
                .threadFactory(threads("weft-zk-curator-%d"));
        if (acl != null) {
            builder.authorization(DigestAcl.SCHEME, acl.credentials()).aclProvider(acl);
        }
        this.client = builder.build();
        client.getConnectionStateListenable().addListener((c, newState) -> onStateChanged(newState));
        this.builtNanos = ticker.read();
        client.start();
        worker.scheduleWithFixedDelay(this::reportNeverConnected, timeoutMs, timeoutMs, TimeUnit.MILLISECONDS);
        log.info("ZooKeeper registry {} connecting to {} (session {} ms asked, root {}{})", url, connectString,
                sessionMs, layout.rootPath(), acl == null ? "" : ", digest identity " + acl.user());
    }

    private static String connectString(URL url) {
        String host = url.getHost();
        checkArgument(host != null && !host.isEmpty(), "registry address: %s (expected: zookeeper://host:port)", url);
        StringBuilder sb = new StringBuilder(url.getPort() > 0 ? url.getAddress()
                : new URL(null, host, DEFAULT_ZK_PORT, null).getAddress());
        for (String backup : Splitter.on(',').trimResults().omitEmptyStrings().split(url.getParameter(BACKUP_KEY, ""))) {
            Matcher hostPort = BACKUP_MEMBER.matcher(backup);
            checkArgument(hostPort.matches() && Integer.parseInt(hostPort.group(1)) >= 1
                            && Integer.parseInt(hostPort.group(1)) <= 65535,
                    "%s: %s (expected: host:port with a port 1-65535, comma-separated) in %s", BACKUP_KEY, backup, url);
            sb.append(',').append(backup);
        }
        return sb.toString();
    }

    private static ThreadFactory threads(String format) {
        return new ThreadFactoryBuilder().setNameFormat(format).setDaemon(true).build();
    }

    // ------------------------------------------------------------------ Registry

    @Override
    public URL getUrl() {
        return url;
    }

    @Override
    public boolean isAvailable() {
        return !closed && state == ZookeeperHealth.State.CONNECTED;
    }

    /** The Curator client this registry owns (package-private: tests expire its session). */
    CuratorFramework curator() {
        return client;
    }

    /** The data of this registry's ephemeral nodes (package-private: tests forge a node of a lost session). */
    byte[] identity() {
        return sessions.identity();
    }

    /** Empty {@code providers} reads held back by {@code empty-grace} so far (package-private: tests wait for one). */
    synchronized int heldEmptyReads() {
        return watchers.values().stream().mapToInt(CategoryWatcher::heldEmptyReads).sum();
    }

    /** The connection state, session and time since the last successful read. */
    public ZookeeperHealth health() {
        Optional<Duration> sinceLastRead = everRead
                ? Optional.of(Duration.ofNanos(Math.max(0, ticker.read() - lastReadNanos)))
                : Optional.empty();
        return new ZookeeperHealth(closed ? ZookeeperHealth.State.CLOSED : state, sessions.current(), sinceLastRead,
                reportedBadNames.size());
    }

    /** The connection state as every registry reports it (same states as {@link #health()}). */
    @Override
    public RegistryHealth.State getState() {
        return RegistryHealth.State.valueOf(health().state().name());
    }

    @Override
    public Optional<Duration> getTimeSinceLastRead() {
        return health().sinceLastRead();
    }

    /**
     * Registers {@code url} and waits up to the connection timeout for its node; if ZooKeeper is
     * unreachable the node is created once it is back.
     *
     * @throws IllegalArgumentException if the node path would be larger than ZooKeeper accepts
     *         ({@value #JUTE_MAXBUFFER_KEY}): a larger request would break the connection on every try
     * @throws IllegalStateException if ZooKeeper refuses the node because of an ACL (another
     *         identity's folder): a retry cannot cure that, so {@code url} is not kept
     */
    @Override
    public void register(URL url) {
        Objects.requireNonNull(url, "url");
        checkOpen();
        String path = layout.nodePath(url);
        int maxPath = juteMaxBuffer - REQUEST_OVERHEAD;
        // Form-encoded, so ASCII: one byte a character.
        checkArgument(path.length() <= maxPath, "register %s://%s/%s: node path of %s bytes (expected: at most %s bytes,"
                        + " %s %s less %s for the rest of the request; ZooKeeper drops the connection on a larger one)",
                url.getProtocol(), url.getAddress(), url.getPath(), path.length(), maxPath, JUTE_MAXBUFFER_KEY,
                juteMaxBuffer, REQUEST_OVERHEAD);
        Registration registration = new Registration(client, url, path, url.getParameter(DYNAMIC_KEY, true),
                sessions, failures, worker);
        if (registrations.putIfAbsent(path, registration) == null) {
            if (!awaitConnected()) {
                log.warn("register {}: {}; its node is created once connected", url, notConnected());
                return;
            }
            String refusal = await(worker.submit(registration::tryEnsure), "register " + url);
            if (refusal != null) {
                registrations.remove(path, registration);
                registration.close(false);
                throw new IllegalStateException(refusal);
            }
        }
    }

    /**
     * Deletes the node of {@code url} (waits up to the connection timeout). A persistent node
     * ({@code dynamic=false}, such as an override rule) belongs to no session, so it is deleted
     * even when another registry wrote it; another registry's ephemeral node is left alone (its
     * registry keeps it), and a URL with no node is ignored.
     *
     * @throws IllegalStateException if ZooKeeper refuses the delete because of an ACL (another
     *         identity's folder); the URL is no longer kept by this registry either way
     */
    @Override
    public void unregister(URL url) {
        Objects.requireNonNull(url, "url");
        checkOpen();
        String path = layout.nodePath(url);
        Registration registration = registrations.remove(path);
        if (!connectedOnce()) {
            if (registration != null) {
                registration.close(false); // never created: nothing to delete
            }
            return;
        }
        if (registration == null && !url.getParameter(DYNAMIC_KEY, true)) {
            registration = new Registration(client, url, path, false, sessions, failures, worker);
        }
        if (registration != null) {
            Registration removed = registration;
            String refusal = await(worker.submit(() -> removed.close(true)), "unregister " + url);
            if (refusal != null) {
                throw new IllegalStateException(refusal);
            }
        }
    }

    @Override
    public void subscribe(URL url, NotifyListener listener) {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(listener, "listener");
        Subscription subscription = new Subscription(url, listener, notifier, failures);
        layout.servicePath(url);
        synchronized (this) {
            checkOpen();
            if (subscriptions.putIfAbsent(new SubscriptionKey(url, listener), subscription) != null) {
                return;
            }
            for (String category : subscription.categories()) {
                String path = layout.categoryPath(url, category);
                watchers.computeIfAbsent(path, p -> startWatcher(p, category)).add(subscription);
            }
        }
    }

    private CategoryWatcher startWatcher(String path, String category) {
        CategoryWatcher watcher = new CategoryWatcher(client, path, category, worker, ticker::read,
                TimeUnit.MILLISECONDS.toNanos(emptyGraceMs), this::onRead,
                reportedBadNames, failures, juteMaxBuffer);
        worker.execute(() -> startWhenConnected(watcher));
        return watcher;
    }

    /**
     * Worker thread: creates the folder and starts {@code watcher} if the client is connected now;
     * otherwise {@link #onConnected()} does it. Nothing is asked of ZooKeeper while it is not
     * connected: each such request would fail after Curator's retries, each failure logged by
     * Curator at ERROR with a stack trace.
     */
    private void startWhenConnected(CategoryWatcher watcher) {
        if (!closed && !watcher.isStarted() && client.getZookeeperClient().isConnected()) {
            createFolder(watcher.path());
            watcher.start();
        }
    }

    /** Creates a category folder as a persistent node (as Dubbo does), so operators can add nodes under it. */
    private void createFolder(String path) {
        try {
            if (client.checkExists().forPath(path) == null) {
                client.create().creatingParentsIfNeeded().forPath(path, new byte[0]);
            }
        } catch (KeeperException.NodeExistsException e) {
            log.trace("Folder {} exists", path);
        } catch (KeeperException.NoAuthException e) {
            log.info("Not allowed to create {} (its parent's ACL); reading it when it exists", path);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            failures.warn("create " + path, "Could not create " + path + "; reading it when it exists", e);
        }
    }

    @Override
    public void unsubscribe(URL url, NotifyListener listener) {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(listener, "listener");
        synchronized (this) {
            Subscription subscription = subscriptions.remove(new SubscriptionKey(url, listener));
            if (subscription == null) {
                return;
            }
            subscription.close();
            for (String category : subscription.categories()) {
                String path = layout.categoryPath(url, category);
                CategoryWatcher watcher = watchers.get(path);
                if (watcher != null && watcher.remove(subscription)) {
                    watchers.remove(path);
                    watcher.close();
                }
            }
        }
    }

    /**
     * Reads the categories {@code url} names once, now, and returns the URLs it would be notified
     * of (without {@code empty://} markers).
     *
     * @throws IllegalStateException if ZooKeeper cannot be read within the connection timeout and retries
     */
    @Override
    public List<URL> lookup(URL url) {
        Objects.requireNonNull(url, "url");
        checkOpen();
        ServiceKeyFilter filter = new ServiceKeyFilter(url);
        List<URL> result = new ArrayList<>();
        for (String category : NodeLayout.subscribedCategories(url)) {
            String path = layout.categoryPath(url, category);
            List<String> names;
            try {
                names = client.getChildren().forPath(path);
            } catch (KeeperException.NoNodeException e) {
                names = List.of();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("lookup " + url + ": interrupted", e);
            } catch (Exception e) {
                throw new IllegalStateException("lookup " + url + ": could not read " + path + " from " + this.url
                        + " (" + ThrottledLog.describe(e) + ")", e);
            }
            List<URL> urls = new ArrayList<>(names.size());
            SkippedNodes skipped = new SkippedNodes(path, reportedBadNames);
            for (String name : names.stream().sorted().toList()) {
                try {
                    urls.add(NodeNames.decode(name));
                } catch (IllegalArgumentException e) {
                    skipped.add(name, e);
                }
            }
            skipped.report(failures);
            result.addAll(filter.keep(category, urls));
        }
        return List.copyOf(result);
    }

    /**
     * The service interfaces that have a folder under this registry's root, sorted (for operator
     * tools: {@code rpc-admin}'s {@code services}).
     *
     * @throws IllegalStateException if ZooKeeper cannot be read within the connection timeout and retries
     */
    public List<String> services() {
        checkOpen();
        List<String> names;
        try {
            names = client.getChildren().forPath(layout.rootPath());
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("services of " + url + ": interrupted", e);
        } catch (Exception e) {
            throw new IllegalStateException("services: could not read " + layout.rootPath() + " from " + url
                    + " (" + ThrottledLog.describe(e) + ")", e);
        }
        return names.stream().map(name -> URLDecoder.decode(name, StandardCharsets.UTF_8)).sorted().toList();
    }

    /**
     * Unregisters every dynamic URL (persistent ones, {@code dynamic=false}, stay), stops every
     * watch and closes the Curator client and the threads. Idempotent: a call while another is
     * under way returns once that one has finished.
     */
    @Override
    public void close() {
        List<CategoryWatcher> stopped = null;
        synchronized (this) {
            if (!closed) {
                closed = true;
                subscriptions.values().forEach(Subscription::close);
                subscriptions.clear();
                stopped = new ArrayList<>(watchers.values());
                watchers.clear();
            }
        }
        if (stopped == null) {
            awaitReleased();
            return;
        }
        try {
            release(stopped);
        } finally {
            released.countDown();
        }
    }

    /** A later close() returns once the first has released everything (each step of it is bounded). */
    private void awaitReleased() {
        try {
            released.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void release(List<CategoryWatcher> stopped) {
        stopped.forEach(CategoryWatcher::close);
        List<Registration> registered = new ArrayList<>(registrations.values());
        registrations.clear();
        if (!connectedOnce()) {
            registered.forEach(r -> r.close(false)); // never created: nothing to delete
        } else if (!registered.isEmpty()) {
            Future<?> unregistered = worker.submit(() -> registered.forEach(r -> {
                String refusal = r.close(r.isEphemeral());
                if (refusal != null) {
                    log.warn("Registry {} closing: {}", url, refusal);
                }
            }));
            try {
                unregistered.get(timeoutMs, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // Closing the client below stops the deletes; the server deletes the ephemeral nodes when it ends the session.
                log.warn("Registry {} closing: its {} nodes not deleted within {} ms (ZooKeeper unreachable?); its"
                        + " ephemeral nodes go when ZooKeeper ends its session, after the session timeout", url,
                        registered.size(), timeoutMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                log.warn("Registry {} closing: could not delete its nodes: {}", url, ThrottledLog.describe(e.getCause()));
            }
        }
        worker.shutdownNow();
        notifier.shutdown();
        client.close();
        try {
            if (!worker.awaitTermination(timeoutMs, TimeUnit.MILLISECONDS)
                    || !notifier.awaitTermination(timeoutMs, TimeUnit.MILLISECONDS)) {
                log.warn("Registry {} threads still busy {} ms after close", url, timeoutMs);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log.info("ZooKeeper registry {} closed", url);
    }

    @Override
    public void destroy() {
        close();
    }

    @Override
    public String toString() {
        return "ZookeeperRegistry[" + url + "]";
    }

    // ------------------------------------------------------------------ connection

    /** Waits up to the connection timeout for a connection; whether there is one. */
    private boolean awaitConnected() {
        try {
            return client.blockUntilConnected(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Whether ZooKeeper has been reached since this registry was built. The connection listener
     * that records it runs on Curator's event thread, after an operation on the new connection may
     * already have succeeded (a node created, a folder read), so the client's own state counts too.
     */
    private boolean connectedOnce() {
        return everConnected || client.getZookeeperClient().isConnected();
    }

    /** Why this registry cannot reach ZooKeeper now, naming it and whether it was ever connected. */
    private String notConnected() {
        long sinceBuilt = TimeUnit.NANOSECONDS.toMillis(ticker.read() - builtNanos);
        return everConnected
                ? "ZooKeeper registry " + url + " is not connected now (" + state + "); the last lists keep serving"
                : "ZooKeeper registry " + url + " was never connected: no server of " + connectString(url)
                        + " answered in the " + sinceBuilt + " ms since it was built (expected: a ZooKeeper server"
                        + " listening there; connection timeout " + timeoutMs + " ms, key " + TIMEOUT_KEY + ")";
    }

    /** Worker thread, every connection timeout: says so, rate-limited with counts, while ZooKeeper was never reached. */
    private void reportNeverConnected() {
        if (!everConnected && !closed) {
            failures.warn("never connected", notConnected(), null);
        }
    }

    private void onStateChanged(ConnectionState newState) {
        ZookeeperHealth.State before = state;
        state = switch (newState) {
            case CONNECTED, RECONNECTED -> ZookeeperHealth.State.CONNECTED;
            case SUSPENDED, READ_ONLY -> ZookeeperHealth.State.SUSPENDED;
            case LOST -> ZookeeperHealth.State.LOST;
        };
        if (before != state) {
            log.info("ZooKeeper registry {}: {}", url, newState);
        }
        if (newState.isConnected() && !closed) {
            everConnected = true;
            worker.execute(this::onConnected);
        }
    }

    /** Worker thread: notes the session and brings registrations and lists up to date. */
    private void onConnected() {
        if (closed) {
            return;
        }
        try {
            ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
            if (sessions.update(zooKeeper.getSessionId())) {
                log.info("ZooKeeper registry {}: session 0x{} (negotiated timeout {} ms)", url,
                        Long.toHexString(zooKeeper.getSessionId()), zooKeeper.getSessionTimeout());
            }
        } catch (Exception e) {
            failures.warn("session", "Could not read the ZooKeeper session of " + url, e);
            return;
        }
        registrations.values().forEach(Registration::ensure);
        List<CategoryWatcher> current;
        synchronized (this) {
            current = new ArrayList<>(watchers.values());
        }
        for (CategoryWatcher watcher : current) {
            if (watcher.isStarted()) {
                watcher.requestRead();
            } else {
                startWhenConnected(watcher);
            }
        }
    }

    private void onRead(String path) {
        lastReadNanos = ticker.read();
        everRead = true;
    }

    /** {@code future}'s result, or {@code null} (logged) when it fails or takes longer than the connection timeout. */
    private <T> T await(Future<T> future, String what) {
        try {
            return future.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            log.warn("{} on {}: not done within {} ms; it continues in the background", what, url, timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            log.warn("{} on {} failed: {}", what, url, ThrottledLog.describe(e.getCause()));
        }
        return null;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("registry closed: " + url);
        }
    }

    private record SubscriptionKey(URL url, NotifyListener listener) {
    }
}
