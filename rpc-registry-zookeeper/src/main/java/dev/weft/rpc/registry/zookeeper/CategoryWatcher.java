package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Watches one category folder ({@code /<root>/<service>/<category>}) for every subscription of
 * this registry that names it, with one persistent ZooKeeper watch.
 *
 * <p>A ZooKeeper event or a reconnection only marks the folder dirty and queues one read on the
 * registry's worker thread (ZooKeeper's event thread never waits); events that arrive while a
 * read is queued are coalesced into it. Each read lists the children afresh, so the latest state
 * always wins, and reads of a folder are serial, so a later read never reflects an older state.
 * A read that fails (ZooKeeper unreachable) delivers nothing: subscribers keep their last lists.
 *
 * <p>The first read waits for a {@code sync} of the folder: a follower of an ensemble answers
 * reads from its own copy, which may lag behind the leader, so without it a consumer could start
 * from a stale list (empty though providers are registered). The sync runs in the background and
 * queues the read when it completes; a sync that fails delivers nothing, and the next event or
 * reconnection tries again. Later reads follow the watch's events, which the server sends only
 * once its copy holds the change.
 *
 * <p>Each read compares the child names with those of the previous read (both sorted, walked
 * together), so only a name that was not there before is decoded; the others keep their URL
 * instances, which makes the directory's own comparison of the lists cheap. A read that finds the
 * same names as the last one delivers nothing new.
 *
 * <p>Node names that do not parse are skipped; each read reports the new ones in one line
 * ({@link SkippedNodes}).
 *
 * <p><b>After this registry's own session was lost</b> (a read finds another session than the
 * read before it), for the grace period given, a
 * {@code providers} folder read empty is not delivered until the grace period ends: the providers'
 * sessions were most likely lost in the same outage, and their registries create their nodes
 * again only once they are connected too. Delivering the empty folder would fail every call until
 * then; keeping the last list lets calls go to providers that are still serving. A folder that is
 * still empty when the grace period ends is read again then and delivered. A non-empty read is
 * delivered at once, grace or not.
 */
final class CategoryWatcher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CategoryWatcher.class);

    private final CuratorFramework client;
    private final String path;
    private final String category;
    private final ScheduledExecutorService worker;
    private final LongSupplier nanoClock;
    private final ReadListener readListener;
    private final Set<String> reportedBadNames;
    private final RateLimitedLog failures;
    private final int juteMaxBuffer;
    private final PersistentWatcher watcher;
    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
    private final AtomicBoolean dirty = new AtomicBoolean();
    private final AtomicBoolean started = new AtomicBoolean();
    /** The children of the last read, sorted by name; {@code url} is null for a name that does not parse. */
    private List<Node> nodes = List.of();
    private long sequence;
    private volatile CategorySnapshot latest;
    /** Whether a sync of the folder completed, so reads see at least what the leader had then. */
    private volatile boolean synced;
    private volatile boolean closed;
    /** How long after a new session an empty {@code providers} read is held back; 0: never. */
    private final long emptyGraceNanos;
    /** The session of the last read (worker thread only). */
    private long readSession;
    /** Until when (on {@link #nanoClock}) an empty read does not replace a non-empty list; see the class comment. */
    private long holdEmptyUntilNanos;
    private boolean holding;
    private final AtomicInteger heldEmptyReads = new AtomicInteger();

    private record Node(String name, URL url) {
    }

    /** What the registry learns from each read. */
    interface ReadListener {
        void onRead(String path);
    }

    CategoryWatcher(CuratorFramework client, String path, String category, ScheduledExecutorService worker,
            LongSupplier nanoClock, long emptyGraceNanos, ReadListener readListener, Set<String> reportedBadNames,
            RateLimitedLog failures, int juteMaxBuffer) {
        this.client = client;
        this.path = path;
        this.category = category;
        this.worker = worker;
        this.nanoClock = nanoClock;
        this.emptyGraceNanos = NodeLayout.PROVIDERS.equals(category) ? emptyGraceNanos : 0;
        this.readListener = readListener;
        this.reportedBadNames = reportedBadNames;
        this.failures = failures;
        this.juteMaxBuffer = juteMaxBuffer;
        this.watcher = new PersistentWatcher(client, path, false);
        watcher.getListenable().addListener(event -> {
            if (event.getType() != Watcher.Event.EventType.None) {
                requestRead();
            }
        });
        watcher.getResetListenable().addListener(this::requestRead);
    }

    String path() {
        return path;
    }

    /**
     * Sets the watch and queues the first read; once only, and never after {@link #close()} (later
     * calls do nothing). Called when
     * the client is connected: a watch added while it is not would fail after Curator's retries,
     * each failure logged by Curator at ERROR with a stack trace.
     */
    void start() {
        synchronized (this) { // with close(): a watch is never added after close() looked for one
            if (closed || !started.compareAndSet(false, true)) {
                return;
            }
            watcher.start();
        }
        requestRead();
    }

    boolean isStarted() {
        return started.get();
    }

    /** Adds a subscriber; it gets the latest list (if any) at once, then every change. */
    void add(Subscription subscription) {
        subscriptions.add(subscription);
        CategorySnapshot snapshot = latest;
        if (snapshot != null) {
            subscription.offer(snapshot);
        }
    }

    /** Removes a subscriber; whether none is left. */
    boolean remove(Subscription subscription) {
        subscriptions.remove(subscription);
        return subscriptions.isEmpty();
    }

    /** How many empty reads were held back by a grace period (tests wait for one). */
    int heldEmptyReads() {
        return heldEmptyReads.get();
    }

    /** Queues one read unless one is already queued. */
    void requestRead() {
        if (!closed && dirty.compareAndSet(false, true)) {
            worker.execute(this::read);
        }
    }

    /** Runs on the worker thread only. */
    private void read() {
        dirty.set(false);
        if (closed) {
            return;
        }
        if (!client.getZookeeperClient().isConnected()) {
            return; // read again once connected (the registry asks then); an attempt now would only fail
        }
        if (!synced) {
            sync();
            return;
        }
        List<String> names;
        try {
            names = client.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            names = List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (KeeperException.ConnectionLossException e) {
            failures.warn("read " + path, "Could not read " + path + "; subscribers keep their last lists. If this"
                    + " repeats while ZooKeeper is up, the folder may be larger than the " + juteMaxBuffer + " bytes a"
                    + " response may have (" + ZookeeperRegistry.JUTE_MAXBUFFER_KEY + "): the connection then breaks"
                    + " on every read", e);
            return;
        } catch (Exception e) {
            failures.warn("read " + path, "Could not read " + path + "; subscribers keep their last lists", e);
            return;
        }
        failures.reset("read " + path);
        noteSession();
        List<String> sorted = new ArrayList<>(names);
        sorted.sort(null);
        List<Node> previous = nodes;
        List<Node> next = new ArrayList<>(sorted.size());
        SkippedNodes skipped = new SkippedNodes(path, reportedBadNames);
        long bytes = 0;
        int kept = 0;
        int p = 0;
        for (String name : sorted) {
            bytes += 4 + name.length(); // names are form-encoded, so ASCII: one byte a character
            // Both lists are sorted by name: walk them together, so a name already known costs
            // one comparison with its previous node and only new names are decoded.
            Node node = null;
            while (p < previous.size()) {
                int order = previous.get(p).name().compareTo(name);
                if (order > 0) {
                    break;
                }
                p++;
                if (order == 0) {
                    node = previous.get(p - 1);
                    kept++;
                    break;
                }
            }
            next.add(node != null ? node : new Node(name, decodeOrSkip(name, skipped)));
        }
        skipped.report(failures);
        if (bytes > juteMaxBuffer / 4 * 3) {
            failures.warn("size " + path, "The children of " + path + " (" + sorted.size() + " nodes, about "
                    + bytes + " bytes) are over 3/4 of the " + juteMaxBuffer + " bytes a response may have; a folder"
                    + " larger than that breaks the connection on every read: raise "
                    + ZookeeperRegistry.JUTE_MAXBUFFER_KEY + " on every client", null);
        }
        readListener.onRead(path);
        if (next.stream().allMatch(node -> node.url() == null) && holdsEmpty()) {
            return; // the last list stands; the nodes are compared with it at the next read
        }
        nodes = next;
        boolean unchanged = kept == previous.size() && kept == next.size();
        if (unchanged && latest != null) {
            return; // a reconnection or a change undone before this read: subscribers have this list
        }
        List<URL> urls = new ArrayList<>(next.size());
        for (Node node : next) {
            if (node.url() != null) {
                urls.add(node.url());
            }
        }
        CategorySnapshot snapshot = new CategorySnapshot(category, ++sequence, urls);
        latest = snapshot;
        for (Subscription subscription : subscriptions) {
            subscription.offer(snapshot);
        }
    }

    /** Starts the grace period when this read was made in a new session, after losing the one of the read before. */
    private void noteSession() {
        long session;
        try {
            session = client.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            return; // the next read tells
        }
        if (readSession != 0 && session != readSession && emptyGraceNanos > 0) {
            holdEmptyUntilNanos = nanoClock.getAsLong() + emptyGraceNanos;
            holding = true;
        }
        readSession = session;
    }

    /**
     * Whether an empty read is held back now (then a read is scheduled for the end of the grace
     * period): within the grace period, with a non-empty list delivered.
     */
    private boolean holdsEmpty() {
        if (!holding) {
            return false;
        }
        long left = holdEmptyUntilNanos - nanoClock.getAsLong();
        CategorySnapshot snapshot = latest;
        if (left <= 0 || snapshot == null || snapshot.urls().isEmpty()) {
            holding = false;
            return false;
        }
        heldEmptyReads.incrementAndGet();
        log.info("{} read empty {} ms after a new session; keeping the last {} providers until the grace period ends"
                + " (they may not have registered again yet)", path, TimeUnit.NANOSECONDS.toMillis(left),
                snapshot.urls().size());
        try {
            worker.schedule(this::requestRead, left, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closing) {
            // the registry is closing: nothing more is read or delivered
        }
        return true;
    }

    /** Asks the server this client is connected to to catch up with the leader, then queues the read. */
    private void sync() {
        try {
            client.sync().inBackground((c, event) -> {
                KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
                if (code == KeeperException.Code.OK || code == KeeperException.Code.NONODE) {
                    synced = true;
                    requestRead();
                } else {
                    failures.warn("read " + path, "Could not sync " + path + " before its first read (" + code
                            + "); reading it once the connection is back", null);
                }
            }).forPath(path);
        } catch (Exception e) {
            failures.warn("read " + path, "Could not sync " + path + " before its first read", e);
        }
    }

    /** The URL node {@code name} stands for, or null (noted in {@code skipped}) when it does not parse. */
    private static URL decodeOrSkip(String name, SkippedNodes skipped) {
        try {
            return NodeNames.decode(name);
        } catch (IllegalArgumentException e) {
            skipped.add(name, e);
            return null;
        }
    }

    /**
     * Stops reading and delivering at once, and removes the folder's watch once ZooKeeper has it.
     * A watch is added in the background when the watcher starts, and the client refuses to remove
     * one it has not registered yet, so a removal sent before the addition's answer would leave the
     * watch in place for good. A sync queued now is answered after that addition, so the watch is
     * removed from its callback (on any result: a lost connection cannot add it later either).
     */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            if (!started.get()) {
                return; // no watch was added, and start() adds none now
            }
        }
        try {
            client.sync().inBackground((c, event) -> watcher.close()).forPath(path);
        } catch (Exception e) {
            watcher.close();
        }
    }
}
