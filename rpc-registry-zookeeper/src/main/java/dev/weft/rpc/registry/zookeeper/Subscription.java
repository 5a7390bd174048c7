package dev.weft.rpc.registry.zookeeper;

import com.google.common.util.concurrent.MoreExecutors;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.NotifyListener;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One {@code subscribe(url, listener)}: hands the listener the full list of each category it
 * named, one call at a time, in order. Snapshots offered faster than the listener takes them are
 * coalesced: only the latest of each category is delivered, and never one older than a list
 * already delivered. A list equal to the one delivered last for its category is not repeated.
 * An empty category is delivered as one {@code empty://} URL with {@code category=<name>}.
 *
 * <p>{@link #offer} is thread-safe; deliveries run on a sequential view of the registry's
 * notification pool, so a slow listener delays only itself.
 */
final class Subscription {

    private final URL url;
    private final NotifyListener listener;
    private final List<String> categories;
    private final ServiceKeyFilter filter;
    private final Executor serial;
    private final RateLimitedLog failures;
    private final ConcurrentMap<String, CategorySnapshot> pending = new ConcurrentHashMap<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Map<String, Long> deliveredSequence = new HashMap<>();
    private final Map<String, List<URL>> delivered = new HashMap<>();
    private volatile boolean closed;

    Subscription(URL url, NotifyListener listener, Executor notifier, RateLimitedLog failures) {
        this.url = url;
        this.listener = listener;
        this.categories = NodeLayout.subscribedCategories(url);
        this.filter = new ServiceKeyFilter(url);
        this.serial = MoreExecutors.newSequentialExecutor(notifier);
        this.failures = failures;
    }

    URL url() {
        return url;
    }

    NotifyListener listener() {
        return listener;
    }

    List<String> categories() {
        return categories;
    }

    /** Queues {@code snapshot} for delivery unless a newer one of its category is already queued. */
    void offer(CategorySnapshot snapshot) {
        if (closed) {
            return;
        }
        pending.merge(snapshot.category(), snapshot,
                (queued, offered) -> offered.sequence() >= queued.sequence() ? offered : queued);
        if (drainScheduled.compareAndSet(false, true)) {
            serial.execute(this::drain);
        }
    }

    void close() {
        closed = true;
        pending.clear();
    }

    /** The URLs of {@code snapshot} this subscriber keeps, or the {@code empty://} marker. */
    List<URL> select(CategorySnapshot snapshot) {
        List<URL> kept = filter.keep(snapshot.category(), snapshot.urls());
        if (kept.isEmpty()) {
            return List.of(url.withProtocol("empty").addParameter(NodeLayout.CATEGORY_KEY, snapshot.category()));
        }
        return kept;
    }

    private void drain() {
        drainScheduled.set(false);
        for (String category : categories) {
            CategorySnapshot snapshot = pending.remove(category);
            if (snapshot == null || closed) {
                continue;
            }
            Long last = deliveredSequence.get(category);
            if (last != null && snapshot.sequence() < last) {
                continue;
            }
            deliveredSequence.put(category, snapshot.sequence());
            List<URL> urls = select(snapshot);
            if (urls.equals(delivered.get(category))) {
                continue;
            }
            delivered.put(category, urls);
            try {
                listener.notify(urls);
            } catch (RuntimeException e) {
                failures.warn("notify " + url.getServiceInterface() + " " + category,
                        "A registry listener failed on the " + category + " of " + url, e);
            }
        }
    }
}
