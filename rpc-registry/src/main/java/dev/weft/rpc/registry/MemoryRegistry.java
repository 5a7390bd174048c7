package dev.weft.rpc.registry;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.ThrottledLog;
import dev.weft.rpc.common.URL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A registry held in memory: for tests, for one-process setups, and to try override rules
 * without ZooKeeper. Several {@code MemoryRegistry} handles may share one store (the
 * {@code memory} {@link RegistryFactory} gives every handle of one address the same store);
 * each handle unregisters what it registered ({@value #DYNAMIC_KEY}{@code =true}, the default)
 * and drops its subscriptions when closed.
 *
 * <p>Layout as in ZooKeeper: URLs are kept per service interface and category (see
 * {@link Categories}); a subscriber gets the full list of each category it asked for at once
 * and after every change, an empty category as one {@code empty://} URL. Group and version are
 * not filtered here (a {@link RegistryDirectory} does that).
 *
 * <p>Thread-safe. Listeners are called on the thread that made the change, one at a time for the
 * whole store, in the order of the changes; a listener must not block, and may call the registry
 * (a change it makes is notified after its call returns).
 * A listener that throws is logged (at most once per 10 s per store, with a count) and the change
 * still reaches the others; the change itself is made.
 */
public final class MemoryRegistry implements Registry, RegistryHealth {

    /** Registered URL key: {@code false} keeps the URL after its registering handle closes (default true). */
    public static final String DYNAMIC_KEY = "dynamic";

    private static final String ALL_CATEGORIES = "*";
    private static final List<String> KNOWN_CATEGORIES = List.of(Categories.PROVIDERS, Categories.CONSUMERS,
            Categories.CONFIGURATORS, Categories.ROUTERS);
    private static final Logger log = LoggerFactory.getLogger(MemoryRegistry.class);

    private final URL url;
    private final Store store;
    private final Set<URL> registered = new LinkedHashSet<>();
    private final List<Subscription> subscriptions = new ArrayList<>();
    private volatile boolean closed;

    /** A registry with a store of its own. */
    public MemoryRegistry(URL url) {
        this(url, new Store());
    }

    MemoryRegistry(URL url, Store store) {
        this.url = Objects.requireNonNull(url, "url");
        this.store = store;
    }

    @Override
    public URL getUrl() {
        return url;
    }

    @Override
    public boolean isAvailable() {
        return !closed;
    }

    @Override
    public void destroy() {
        close();
    }

    /**
     * @throws IllegalArgumentException when {@code url} names no service interface, or a category
     *                                  that is not one of {@link Categories}'
     * @throws IllegalStateException    when this registry is closed
     */
    @Override
    public void register(URL registeredUrl) {
        Objects.requireNonNull(registeredUrl, "url");
        Store.interfaceOf(registeredUrl);
        String category = Categories.of(registeredUrl);
        if (!KNOWN_CATEGORIES.contains(category)) {
            throw new IllegalArgumentException(Categories.CATEGORY_KEY + ": " + category + " (expected: one of "
                    + KNOWN_CATEGORIES + ") in " + registeredUrl);
        }
        synchronized (store) {
            checkOpen();
            registered.add(registeredUrl);
            store.add(registeredUrl);
        }
    }

    @Override
    public void unregister(URL registeredUrl) {
        Objects.requireNonNull(registeredUrl, "url");
        synchronized (store) {
            registered.remove(registeredUrl);
            store.remove(registeredUrl);
        }
    }

    /**
     * Subscribes {@code listener} to the categories {@code subscribed} names ({@code category},
     * comma-separated, {@code *} for all; default providers) of its service interface, and
     * notifies it of each of them now.
     *
     * @throws IllegalArgumentException when {@code subscribed} names no service interface, or a
     *                                  category that is not one of {@link Categories}
     */
    @Override
    public void subscribe(URL subscribed, NotifyListener listener) {
        Objects.requireNonNull(subscribed, "url");
        Objects.requireNonNull(listener, "listener");
        synchronized (store) {
            checkOpen();
            Subscription subscription = new Subscription(subscribed, listener, Store.interfaceOf(subscribed),
                    categoriesOf(subscribed));
            subscriptions.add(subscription);
            store.subscribe(subscription);
        }
    }

    @Override
    public void unsubscribe(URL subscribed, NotifyListener listener) {
        synchronized (store) {
            subscriptions.removeIf(s -> {
                boolean match = s.url.equals(subscribed) && s.listener == listener;
                if (match) {
                    store.unsubscribe(s);
                }
                return match;
            });
        }
    }

    @Override
    public List<URL> lookup(URL query) {
        Objects.requireNonNull(query, "url");
        synchronized (store) {
            List<URL> result = new ArrayList<>();
            for (String category : categoriesOf(query)) {
                result.addAll(store.urls(Store.interfaceOf(query), category));
            }
            return List.copyOf(result);
        }
    }

    /** Unregisters the dynamic URLs this handle registered and drops its subscriptions; idempotent. */
    @Override
    public void close() {
        synchronized (store) {
            if (closed) {
                return;
            }
            closed = true;
            for (Subscription subscription : subscriptions) {
                store.unsubscribe(subscription);
            }
            subscriptions.clear();
            for (URL registeredUrl : registered) {
                if (registeredUrl.getParameter(DYNAMIC_KEY, true)) {
                    store.remove(registeredUrl);
                }
            }
            registered.clear();
        }
    }

    /** {@link State#CONNECTED} until closed. */
    @Override
    public State getState() {
        return closed ? State.CLOSED : State.CONNECTED;
    }

    /** Always zero: a memory registry reads its data on every change. */
    @Override
    public Optional<Duration> getTimeSinceLastRead() {
        return Optional.of(Duration.ZERO);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("Registry " + url + " is closed");
        }
    }

    private static Set<String> categoriesOf(URL subscribed) {
        String names = subscribed.getParameter(Categories.CATEGORY_KEY, Categories.PROVIDERS);
        Set<String> categories = new LinkedHashSet<>();
        for (String name : names.split(",")) {
            String trimmed = name.trim();
            if (ALL_CATEGORIES.equals(trimmed)) {
                categories.addAll(KNOWN_CATEGORIES);
            } else if (KNOWN_CATEGORIES.contains(trimmed)) {
                categories.add(trimmed);
            } else if (!trimmed.isEmpty()) {
                throw new IllegalArgumentException(Categories.CATEGORY_KEY + ": " + trimmed + " (expected: one of "
                        + KNOWN_CATEGORIES + ", or " + ALL_CATEGORIES + " for all) in " + subscribed);
            }
        }
        if (categories.isEmpty()) {
            throw new IllegalArgumentException(Categories.CATEGORY_KEY + ": " + names + " (expected: one or more of "
                    + KNOWN_CATEGORIES + ", or " + ALL_CATEGORIES + " for all) in " + subscribed);
        }
        return categories;
    }

    @Override
    public String toString() {
        return "MemoryRegistry[" + url + "]";
    }

    private record Subscription(URL url, NotifyListener listener, String serviceInterface, Set<String> categories) {
    }

    private record Delivery(Subscription subscription, String category) {
    }

    /** The URLs and subscriptions shared by the handles of one address. Guarded by its own monitor. */
    static final class Store {
        private final Map<String, Map<String, Set<URL>>> urls = new HashMap<>();
        private final List<Subscription> subscriptions = new ArrayList<>();
        /**
         * Notifications not made yet, in the order of the changes. A change a listener makes from
         * inside its call is queued here and made after that call returns, so no listener is
         * called again before it returns.
         */
        private final Deque<Delivery> pending = new ArrayDeque<>();
        private boolean delivering;
        private final ThrottledLog listenerFailures = new ThrottledLog(log, Ticker.systemTicker(), Duration.ofSeconds(10));

        static String interfaceOf(URL url) {
            String serviceInterface = url.getServiceInterface();
            if (serviceInterface == null || serviceInterface.isEmpty()) {
                throw new IllegalArgumentException("registry URL interface: none (expected: a path or an "
                        + "interface parameter naming the service) in " + url);
            }
            return serviceInterface;
        }

        void add(URL url) {
            String serviceInterface = interfaceOf(url);
            String category = Categories.of(url);
            if (urls.computeIfAbsent(serviceInterface, s -> new HashMap<>())
                    .computeIfAbsent(category, c -> new LinkedHashSet<>()).add(url)) {
                changed(serviceInterface, category);
            }
        }

        void remove(URL url) {
            String serviceInterface = interfaceOf(url);
            String category = Categories.of(url);
            Map<String, Set<URL>> byCategory = urls.get(serviceInterface);
            Set<URL> set = byCategory == null ? null : byCategory.get(category);
            if (set != null && set.remove(url)) {
                if (set.isEmpty()) {
                    byCategory.remove(category);
                    if (byCategory.isEmpty()) {
                        urls.remove(serviceInterface);
                    }
                }
                changed(serviceInterface, category);
            }
        }

        List<URL> urls(String serviceInterface, String category) {
            Map<String, Set<URL>> byCategory = urls.get(serviceInterface);
            Set<URL> set = byCategory == null ? null : byCategory.get(category);
            return set == null ? List.of() : List.copyOf(set);
        }

        void subscribe(Subscription subscription) {
            subscriptions.add(subscription);
            for (String category : subscription.categories()) {
                pending.add(new Delivery(subscription, category));
            }
            deliver();
        }

        void unsubscribe(Subscription subscription) {
            subscriptions.remove(subscription);
        }

        private void changed(String serviceInterface, String category) {
            for (Subscription subscription : List.copyOf(subscriptions)) {
                if (subscription.serviceInterface().equals(serviceInterface)
                        && subscription.categories().contains(category)) {
                    pending.add(new Delivery(subscription, category));
                }
            }
            deliver();
        }

        /** Makes the pending notifications one at a time, unless a call further up this thread is making them. */
        private void deliver() {
            if (delivering) {
                return;
            }
            delivering = true;
            try {
                for (Delivery next = pending.poll(); next != null; next = pending.poll()) {
                    if (subscriptions.contains(next.subscription())) {
                        notify(next.subscription(), next.category());
                    }
                }
            } finally {
                delivering = false;
            }
        }

        /** Notifies one listener; one that throws is logged and does not keep the change from the others. */
        private void notify(Subscription subscription, String category) {
            List<URL> current = urls(subscription.serviceInterface(), category);
            try {
                subscription.listener().notify(current.isEmpty()
                        ? List.of(Categories.emptyMarker(subscription.url(), category))
                        : current);
            } catch (RuntimeException e) {
                listenerFailures.error("Registry listener " + subscription.listener() + " of " + subscription.url()
                        + " failed on the " + category + " of " + subscription.serviceInterface()
                        + "; the other listeners were notified", e);
            }
        }
    }
}
