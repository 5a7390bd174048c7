package dev.weft.rpc.cluster;

import dev.weft.rpc.cluster.internal.AvailableInvokers;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The shared logic of directories: an immutable snapshot of members split into normal and
 * {@code mock}-protocol invokers, availability filtering, and the mock routing flag.
 *
 * <ul>
 *   <li>A normal call never sees invokers whose URL protocol is {@code mock}; a call whose
 *       invocation carries attachment {@value #NEED_MOCK_ATTACHMENT}{@code =true} sees only
 *       those (possibly none).</li>
 *   <li>With {@value #AVAILABLE_CHECK_KEY}{@code =true} (the default) {@link #list} lists only
 *       the invokers available now (one {@code isAvailable()} per member), and
 *       {@link #candidates} those not known to be down: the members found down by the last
 *       {@code list} are re-checked, the others are not (so it costs nothing per member while all
 *       are up). The list instance stays the same while membership and availability do not change
 *       (balancers cache per list identity); steady-state reads allocate nothing.</li>
 *   <li>The directory does not own its invokers: {@link #destroy()} drops its references (so
 *       per-invoker statistics can be reclaimed) but destroys none of them.</li>
 * </ul>
 *
 * <p>Thread-safe: membership and URL are immutable snapshots behind volatile fields, so every
 * call sees one consistent snapshot even while they are replaced.
 *
 * @param <T> the service interface
 */
public abstract class AbstractDirectory<T> implements Directory<T> {

    /** Invocation attachment that routes a call to the {@code mock}-protocol invokers. */
    public static final String NEED_MOCK_ATTACHMENT = "invocation.need.mock";

    /** Consumer URL key: list only available invokers (default {@code true}). */
    public static final String AVAILABLE_CHECK_KEY = "cluster.availablecheck";

    /** The URL protocol of mock invokers, listed only for {@link #NEED_MOCK_ATTACHMENT} calls. */
    public static final String MOCK_PROTOCOL = "mock";

    private final Class<T> type;
    private final AvailableInvokers<T> availableNormal = new AvailableInvokers<>();
    private final AvailableInvokers<T> availableMock = new AvailableInvokers<>();
    private volatile ConsumerView view;
    private volatile Members<T> members = Members.empty();
    private volatile boolean destroyed;

    protected AbstractDirectory(Class<T> type, URL consumerUrl) {
        this.type = Objects.requireNonNull(type, "type");
        this.view = new ConsumerView(Objects.requireNonNull(consumerUrl, "consumerUrl"));
    }

    @Override
    public final Class<T> getInterface() {
        return type;
    }

    /** The current consumer URL. */
    @Override
    public final URL getUrl() {
        return view.url;
    }

    /** Not destroyed and at least one normal (non-mock) invoker is available. */
    @Override
    public boolean isAvailable() {
        if (destroyed) {
            return false;
        }
        List<Invoker<T>> normal = members.normal;
        for (int i = 0, n = normal.size(); i < n; i++) {
            if (normal.get(i).isAvailable()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The invokers for {@code invocation}, each checked available now (see the class comment).
     *
     * @throws RpcException when the directory was destroyed
     */
    @Override
    public final List<Invoker<T>> list(Invocation invocation) throws RpcException {
        return invokersFor(invocation, true);
    }

    /**
     * The invokers for {@code invocation} not known to be unavailable (see the class comment and
     * {@link Directory#candidates}).
     *
     * @throws RpcException when the directory was destroyed
     */
    @Override
    public final List<Invoker<T>> candidates(Invocation invocation) throws RpcException {
        return invokersFor(invocation, false);
    }

    /** The listed invokers, each checked available now when {@code exact}, else those not known to be down. */
    private List<Invoker<T>> invokersFor(Invocation invocation, boolean exact) {
        Objects.requireNonNull(invocation, "invocation");
        Members<T> current = members;
        if (destroyed) {
            throw new RpcException("Directory of service " + type.getName() + " is destroyed; cannot list providers for method "
                    + invocation.getMethodName() + " (consumer: " + view.url + ")");
        }
        boolean mock = isMockCall(invocation);
        List<Invoker<T>> source = mock ? current.mock : current.normal;
        if (!view.availableCheck || source.isEmpty()) {
            return source;
        }
        AvailableInvokers<T> available = mock ? availableMock : availableNormal;
        return exact ? available.of(source) : available.candidates(source);
    }

    /** Whether {@code invocation} asks for the mock invokers. */
    public static boolean isMockCall(Invocation invocation) {
        String flag = invocation.getAttachment(NEED_MOCK_ATTACHMENT);
        return flag != null && "true".equalsIgnoreCase(flag);
    }

    /** All members, normal then mock, in the order given; for tests and diagnostics. */
    public List<Invoker<T>> getAllInvokers() {
        return members.all;
    }

    /** Drops every reference to the invokers and refuses further {@code list} calls; idempotent. */
    @Override
    public synchronized void destroy() {
        destroyed = true;
        members = Members.empty();
        availableNormal.clear();
        availableMock.clear();
    }

    /** Whether {@link #destroy()} was called. */
    public final boolean isDestroyed() {
        return destroyed;
    }

    /**
     * Replaces the members. When {@code invokers} holds the same invokers in the same order as
     * now, nothing changes (the listed instances stay the same).
     *
     * @throws NullPointerException     when {@code invokers} or an element is null
     * @throws IllegalArgumentException when an invoker serves another interface
     */
    protected final synchronized void replaceInvokers(List<Invoker<T>> invokers) {
        Objects.requireNonNull(invokers, "invokers");
        for (int i = 0, n = invokers.size(); i < n; i++) {
            Invoker<T> invoker = invokers.get(i);
            if (invoker == null) {
                throw new NullPointerException("invokers[" + i + "]: null (expected: an Invoker of " + type.getName() + ")");
            }
            if (invoker.getInterface() != type) {
                throw new IllegalArgumentException("invokers[" + i + "]: " + invoker.getUrl() + " serves "
                        + (invoker.getInterface() == null ? "null" : invoker.getInterface().getName())
                        + " (expected: an Invoker of " + type.getName() + ")");
            }
        }
        if (destroyed || sameInvokers(members.all, invokers)) {
            return;
        }
        members = Members.of(invokers);
        availableNormal.clear();
        availableMock.clear();
    }

    /** Replaces the consumer URL; calls in flight keep the URL they started with. */
    protected final void replaceUrl(URL consumerUrl) {
        view = new ConsumerView(Objects.requireNonNull(consumerUrl, "consumerUrl"));
    }

    private static <T> boolean sameInvokers(List<Invoker<T>> current, List<Invoker<T>> next) {
        if (current.size() != next.size()) {
            return false;
        }
        for (int i = 0, n = current.size(); i < n; i++) {
            if (current.get(i) != next.get(i)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + type.getName() + ", " + members.all.size() + " invokers, " + view.url + "]";
    }

    /** The consumer URL with the keys the directory reads, parsed once per URL. */
    private static final class ConsumerView {
        final URL url;
        final boolean availableCheck;

        ConsumerView(URL url) {
            this.url = url;
            this.availableCheck = url.getParameter(AVAILABLE_CHECK_KEY, true);
        }
    }

    /** One immutable membership snapshot. */
    private static final class Members<T> {
        private static final Members<?> EMPTY = new Members<>(List.of(), List.of(), List.of());

        final List<Invoker<T>> all;
        final List<Invoker<T>> normal;
        final List<Invoker<T>> mock;

        private Members(List<Invoker<T>> all, List<Invoker<T>> normal, List<Invoker<T>> mock) {
            this.all = all;
            this.normal = normal;
            this.mock = mock;
        }

        @SuppressWarnings("unchecked")
        static <T> Members<T> empty() {
            return (Members<T>) EMPTY;
        }

        static <T> Members<T> of(List<Invoker<T>> invokers) {
            List<Invoker<T>> all = List.copyOf(invokers);
            List<Invoker<T>> normal = new ArrayList<>(all.size());
            List<Invoker<T>> mock = new ArrayList<>(0);
            for (Invoker<T> invoker : all) {
                URL url = invoker.getUrl();
                if (url != null && MOCK_PROTOCOL.equals(url.getProtocol())) {
                    mock.add(invoker);
                } else {
                    normal.add(invoker);
                }
            }
            return new Members<>(all, mock.isEmpty() ? all : List.copyOf(normal), List.copyOf(mock));
        }
    }
}
