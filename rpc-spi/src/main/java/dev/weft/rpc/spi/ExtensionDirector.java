package dev.weft.rpc.spi;

import com.google.common.base.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A set of {@link ExtensionLoader}s sharing one class loader and one lifecycle.
 *
 * <p>Extensions are singletons per director: two directors (say, two tests, or two
 * applications in one JVM) never share instances, and a director built on a class loader that
 * sees extra descriptor files sees extra extensions. {@link #close()} closes every extension the
 * director created that is {@link AutoCloseable} (each object once, newest first) and the
 * director then refuses new work.
 *
 * <p><b>Time and per-director services.</b> A director owns a {@link Ticker} ({@link #getTicker()},
 * {@link Ticker#systemTicker()} unless given one), the one clock its extensions read, so a test
 * passes a fake ticker and gets exact time everywhere. {@link #getService(Class, Function)} holds
 * services that belong to one director rather than to the JVM (call statistics, for example): each
 * type is created once, on first request, and closed with the director when it is
 * {@link AutoCloseable}. This is how extensions share state without static fields, so two directors
 * never see each other's state.
 *
 * <p>Thread-safe. Extension creation is serialised per director by one reentrant lock, so
 * extensions that need each other (injection, wrappers, constructors asking for other
 * extensions) are built on one thread and cycles are detected and reported with their chain
 * instead of deadlocking or overflowing the stack. Lookups of existing extensions take no lock.
 */
public final class ExtensionDirector implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ExtensionDirector.class);
    private static final Object DEFAULT_LOCK = new Object();
    private static volatile ExtensionDirector defaultDirector;

    private final ClassLoader classLoader;
    private final Ticker ticker;
    private final boolean useContextClassLoader;
    private final Map<Class<?>, Object> services = new ConcurrentHashMap<>();
    private final Map<Class<?>, ExtensionLoader<?>> loaders = new ConcurrentHashMap<>();
    private final ReentrantLock creationLock = new ReentrantLock();
    private final ThreadLocal<ArrayDeque<String>> creating = new ThreadLocal<>();
    private final Map<Object, Boolean> createdSet = new IdentityHashMap<>();
    private final List<Object> created = new ArrayList<>();
    private volatile boolean closed;

    /**
     * A director whose loaders read descriptors through {@code classLoader} and through the class
     * loader of each extension point.
     */
    public ExtensionDirector(ClassLoader classLoader) {
        this(classLoader, Ticker.systemTicker());
    }

    /**
     * As {@link #ExtensionDirector(ClassLoader)}, with {@code ticker} as the clock of everything this
     * director creates (tests pass a fake one).
     */
    public ExtensionDirector(ClassLoader classLoader, Ticker ticker) {
        this(Objects.requireNonNull(classLoader, "classLoader"), Objects.requireNonNull(ticker, "ticker"), false);
    }

    private ExtensionDirector(ClassLoader classLoader, Ticker ticker, boolean useContextClassLoader) {
        this.classLoader = classLoader;
        this.ticker = ticker;
        this.useContextClassLoader = useContextClassLoader;
    }

    /**
     * The JVM-wide director behind {@link ExtensionLoader#getExtensionLoader(Class)}; it also reads
     * the thread context class loader. When closed, the next call creates a fresh one.
     */
    public static ExtensionDirector getDefault() {
        ExtensionDirector director = defaultDirector;
        if (director == null || director.closed) {
            synchronized (DEFAULT_LOCK) {
                director = defaultDirector;
                if (director == null || director.closed) {
                    ClassLoader own = ExtensionDirector.class.getClassLoader();
                    director = new ExtensionDirector(own == null ? ClassLoader.getSystemClassLoader() : own, Ticker.systemTicker(), true);
                    defaultDirector = director;
                }
            }
        }
        return director;
    }

    /**
     * The loader of extension point {@code type}, created on first use.
     *
     * @throws IllegalArgumentException when {@code type} is not an interface annotated {@link SPI}
     * @throws IllegalStateException    when this director is closed
     */
    @SuppressWarnings("unchecked")
    public <T> ExtensionLoader<T> getExtensionLoader(Class<T> type) {
        Objects.requireNonNull(type, "type");
        ExtensionLoader<T> loader = (ExtensionLoader<T>) loaders.get(type);
        if (loader != null) {
            return loader;
        }
        requireOpen();
        if (!type.isInterface() || !type.isAnnotationPresent(SPI.class)) {
            throw new IllegalArgumentException("Extension point: " + type.getName() + " (expected: an interface annotated @"
                    + SPI.class.getName() + ")");
        }
        return (ExtensionLoader<T>) loaders.computeIfAbsent(type, t -> new ExtensionLoader<>(type, this));
    }

    /** The class loader this director reads descriptors through. */
    public ClassLoader getClassLoader() {
        return classLoader;
    }

    /** The clock of this director: extensions read time from it, never from the system directly. */
    public Ticker getTicker() {
        return ticker;
    }

    /**
     * The service of {@code type} belonging to this director, created with {@code factory} on the
     * first request (once, even when threads race) and returned to every later one. A service that
     * is {@link AutoCloseable} is closed by {@link #close()}, with the extensions, newest first.
     * Lookups of an existing service take no lock.
     *
     * @throws IllegalStateException when this director is closed and the service does not exist yet
     * @throws ClassCastException    when {@code factory} returns something that is not a {@code type}
     */
    public <S> S getService(Class<S> type, Function<? super ExtensionDirector, ? extends S> factory) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(factory, "factory");
        Object existing = services.get(type);
        if (existing != null) {
            return type.cast(existing);
        }
        return create("service " + type.getName(), () -> {
            Object raced = services.get(type);
            if (raced != null) {
                return type.cast(raced);
            }
            S service = Objects.requireNonNull(factory.apply(this), () -> "factory of service " + type.getName() + " returned null");
            type.cast(service);
            services.put(type, service);
            created(service);
            return service;
        });
    }

    /** Whether {@link #close()} has been called. */
    public boolean isClosed() {
        return closed;
    }

    /** Closes every created {@link AutoCloseable} extension, newest first, each once; idempotent. */
    @Override
    public void close() {
        List<Object> toClose;
        creationLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(created);
            created.clear();
            createdSet.clear();
        } finally {
            creationLock.unlock();
        }
        for (int i = toClose.size() - 1; i >= 0; i--) {
            Object instance = toClose.get(i);
            if (instance instanceof AutoCloseable) {
                try {
                    ((AutoCloseable) instance).close();
                } catch (Exception | LinkageError e) {
                    LOG.warn("Closing extension {} failed: {}", instance.getClass().getName(), e.toString(), e);
                }
            }
        }
        loaders.clear();
        services.clear();
    }

    // ------------------------------------------------------------------ used by ExtensionLoader

    List<ClassLoader> classLoadersFor(Class<?> type) {
        List<ClassLoader> result = new ArrayList<>(3);
        addDistinct(result, classLoader);
        addDistinct(result, type.getClassLoader());
        if (useContextClassLoader) {
            addDistinct(result, Thread.currentThread().getContextClassLoader());
        }
        return result;
    }

    private static void addDistinct(List<ClassLoader> loaders, ClassLoader loader) {
        if (loader != null && !loaders.contains(loader)) {
            loaders.add(loader);
        }
    }

    void requireOpen() {
        if (closed) {
            throw new IllegalStateException("ExtensionDirector: closed (expected: an open director; create a new one)");
        }
    }

    /**
     * Runs {@code creation} under the creation lock, with {@code what} on this thread's creation
     * chain so that a cycle is reported instead of recursing forever.
     */
    <R> R create(String what, Supplier<R> creation) {
        creationLock.lock();
        try {
            requireOpen();
            ArrayDeque<String> chain = creating.get();
            if (chain == null) {
                chain = new ArrayDeque<>();
                creating.set(chain);
            }
            if (chain.contains(what)) {
                StringBuilder path = new StringBuilder();
                for (java.util.Iterator<String> it = chain.descendingIterator(); it.hasNext(); ) {
                    path.append(it.next()).append(" -> ");
                }
                throw new ExtensionCycleException("Extension cycle: " + path + what
                        + " (expected: no extension that needs itself through injection, wrapping or its constructor)");
            }
            chain.push(what);
            try {
                return creation.get();
            } finally {
                chain.pop();
                if (chain.isEmpty()) {
                    creating.remove();
                }
            }
        } finally {
            creationLock.unlock();
        }
    }

    /** Records an instance for {@link #close()}; caller holds the creation lock. */
    void created(Object instance) {
        if (createdSet.put(instance, Boolean.TRUE) == null) {
            created.add(instance);
        }
    }

    @Override
    public String toString() {
        return "ExtensionDirector[" + classLoader + (closed ? ", closed" : "") + ", loaders=" + loaders.size() + "]";
    }
}
