package dev.weft.rpc.registry.zookeeper;

import com.google.common.collect.Maps;
import dev.weft.rpc.common.URL;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

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
 * <p>Node names that do not parse are logged once per node path and skipped.
 */
final class CategoryWatcher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CategoryWatcher.class);

    private final CuratorFramework client;
    private final String path;
    private final String category;
    private final Executor worker;
    private final ReadListener readListener;
    private final Set<String> reportedBadNames;
    private final RateLimitedLog failures;
    private final int juteMaxBuffer;
    private final PersistentWatcher watcher;
    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
    private final AtomicBoolean dirty = new AtomicBoolean();
    private Map<String, URL> decoded = Map.of();
    private long sequence;
    private volatile CategorySnapshot latest;
    private volatile boolean closed;

    /** What the registry learns from each read. */
    interface ReadListener {
        void onRead(String path);
    }

    CategoryWatcher(CuratorFramework client, String path, String category, Executor worker, ReadListener readListener,
            Set<String> reportedBadNames, RateLimitedLog failures, int juteMaxBuffer) {
        this.client = client;
        this.path = path;
        this.category = category;
        this.worker = worker;
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

    void start() {
        watcher.start();
        requestRead();
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
        List<String> sorted = new ArrayList<>(names);
        sorted.sort(null);
        Map<String, URL> next = Maps.newHashMapWithExpectedSize(sorted.size());
        List<URL> urls = new ArrayList<>(sorted.size());
        long bytes = 0;
        for (String name : sorted) {
            bytes += 4 + name.length(); // names are form-encoded, so ASCII: one byte a character
            URL url = decoded.get(name);
            if (url == null) {
                try {
                    url = NodeNames.decode(name);
                } catch (IllegalArgumentException e) {
                    String nodePath = path + "/" + name;
                    if (reportedBadNames.add(nodePath)) {
                        log.warn("Skipping node {}: {}", nodePath, e.getMessage());
                    }
                    continue;
                }
            }
            next.put(name, url);
            urls.add(url);
        }
        if (bytes > juteMaxBuffer / 4 * 3) {
            failures.warn("size " + path, "The children of " + path + " (" + sorted.size() + " nodes, about "
                    + bytes + " bytes) are over 3/4 of the " + juteMaxBuffer + " bytes a response may have; a folder"
                    + " larger than that breaks the connection on every read: raise "
                    + ZookeeperRegistry.JUTE_MAXBUFFER_KEY + " on every client", null);
        }
        decoded = next;
        CategorySnapshot snapshot = new CategorySnapshot(category, ++sequence, urls);
        latest = snapshot;
        readListener.onRead(path);
        for (Subscription subscription : subscriptions) {
            subscription.offer(snapshot);
        }
    }

    @Override
    public void close() {
        closed = true;
        watcher.close();
    }
}
