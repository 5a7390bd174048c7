package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.InvokerView;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * The shared logic of directories: the current {@link DirectoryState}, published on every change
 * and read with one volatile read, and the {@link DirectoryListener}s that may veto a new state.
 *
 * <ul>
 *   <li><b>Publication.</b> A change of members or consumer URL builds the next state, asks every
 *       listener to {@linkplain DirectoryListener#check check} it (a veto makes the change throw
 *       and the current state keeps serving), then publishes it.</li>
 *   <li><b>Availability.</b> With {@value DirectoryState#AVAILABLE_CHECK_KEY}{@code =true} (the default) a state
 *       records which providers were available when it was built ({@link DirectoryState#candidates()});
 *       {@link #list} checks every provider now and, when availability changed, publishes a new state
 *       (without a veto: the members did not change).</li>
 *   <li><b>Ejection.</b> The cluster invoker's {@link OutlierDetector} names the providers to leave out
 *       ({@link #setEjected}); every state published from then on leaves them out of its candidates
 *       (and lists them in {@link DirectoryState#ejected()}), until they are named no more. An
 *       ejection publishes a new state without a veto: the members did not change.</li>
 *   <li><b>Mock routing.</b> A normal call never sees invokers whose URL protocol is {@code mock}; a
 *       call with attachment {@value #NEED_MOCK_ATTACHMENT}{@code =true} sees only those.</li>
 *   <li><b>Ownership.</b> The directory does not own its invokers: {@link #destroy()} drops its
 *       references (so per-invoker statistics can be reclaimed) but destroys none of them.</li>
 * </ul>
 *
 * <p>Thread-safe: changes are serialised by this object's lock; reads take no lock.
 *
 * @param <T> the service interface
 */
public abstract class AbstractDirectory<T> implements Directory<T> {

    /** Invocation attachment that routes a call to the {@code mock}-protocol invokers. */
    public static final String NEED_MOCK_ATTACHMENT = "invocation.need.mock";

    private final Class<T> type;
    private final List<DirectoryListener<T>> listeners = new CopyOnWriteArrayList<>();
    private volatile DirectoryState<T> state;
    private volatile boolean destroyed;
    /** The providers ejected as outliers (unwrapped); guarded by this object's lock. */
    private Set<Invoker<?>> ejected = Set.of();

    protected AbstractDirectory(Class<T> type, URL consumerUrl) {
        this.type = Objects.requireNonNull(type, "type");
        this.state = DirectoryState.of(Objects.requireNonNull(consumerUrl, "consumerUrl"), List.of(), 0);
    }

    @Override
    public final Class<T> getInterface() {
        return type;
    }

    /** The current consumer URL. */
    @Override
    public final URL getUrl() {
        return state.url();
    }

    /** The current state: one volatile read. */
    public final DirectoryState<T> state() {
        return state;
    }

    /** Not destroyed and at least one normal (non-mock) invoker is available. */
    @Override
    public boolean isAvailable() {
        return !destroyed && state.invokers().stream().anyMatch(Invoker::isAvailable);
    }

    /**
     * The invokers for {@code invocation}, each checked available now (see the class comment),
     * routed by the state's {@link Router} for its method and route key.
     *
     * @throws RpcException when the directory was destroyed
     */
    @Override
    public final List<Invoker<T>> list(Invocation invocation) throws RpcException {
        Objects.requireNonNull(invocation, "invocation");
        DirectoryState<T> current = state;
        if (destroyed) {
            throw new RpcException("Directory of service " + type.getName() + " is destroyed; cannot list providers for method "
                    + invocation.getMethodName() + " (consumer: " + current.url() + ")");
        }
        if (isMockCall(invocation)) {
            return current.mockInvokers();
        }
        return (current.availabilityChanged() ? publishAvailability(current) : current).routes().of(invocation).invokers();
    }

    /** Whether {@code invocation} asks for the mock invokers. */
    public static boolean isMockCall(Invocation invocation) {
        String flag = invocation.getAttachment(NEED_MOCK_ATTACHMENT);
        return flag != null && "true".equalsIgnoreCase(flag);
    }

    /** All members, normal then mock, in the order given; for tests and diagnostics. */
    public List<Invoker<T>> getAllInvokers() {
        return state.allInvokers();
    }

    /**
     * Registers {@code listener}: it first {@linkplain DirectoryListener#check checks} the current
     * state, and from then on checks every state before it is published, except those that only
     * change availability. When it refuses the current state, the directory may publish another
     * one it accepts ({@link #onListenerRefusal}); the listener is registered if it accepts the
     * state then current.
     *
     * @throws RuntimeException what the listener's check threw; it is then not registered
     */
    public final void addListener(DirectoryListener<T> listener) {
        Objects.requireNonNull(listener, "listener");
        RuntimeException refusal;
        synchronized (this) {
            try {
                listener.check(state);
                listeners.add(listener);
                return;
            } catch (RuntimeException e) {
                refusal = e;
            }
        }
        boolean revised;
        try {
            // Without this lock: a subclass takes its own locks before it publishes.
            revised = onListenerRefusal(listener);
        } catch (RuntimeException e) {
            refusal.addSuppressed(e);
            throw refusal;
        }
        if (!revised) {
            throw refusal;
        }
        synchronized (this) {
            listener.check(state);
            listeners.add(listener);
        }
    }

    /**
     * Called by {@link #addListener}, without this directory's lock, when {@code joining} (not
     * registered yet) refused the current state. A directory whose state is derived from settings
     * it may leave out (a registry's override rules) publishes, with
     * {@link #publish(URL, List, DirectoryListener)}, a state without the refused ones and returns
     * true; {@code joining} is then registered if it accepts the state current after the call.
     * Default: false (the registration fails with the refusal).
     */
    protected boolean onListenerRefusal(DirectoryListener<T> joining) {
        return false;
    }

    /** Unregisters {@code listener}; idempotent. */
    public final void removeListener(DirectoryListener<T> listener) {
        listeners.remove(listener);
    }

    /** Drops every reference to the invokers and refuses further {@code list} calls; idempotent. */
    @Override
    public synchronized void destroy() {
        destroyed = true;
        ejected = Set.of();
        state = DirectoryState.of(state.url(), List.of(), state.version() + 1);
        listeners.clear();
    }

    /** Whether {@link #destroy()} was called. */
    public final boolean isDestroyed() {
        return destroyed;
    }

    /**
     * Publishes the state of {@code consumerUrl} (null: keep the current one) and {@code invokers}
     * (null: keep the current members), after every listener checked it. Ignored after
     * {@link #destroy()}. When neither changes, nothing is published.
     *
     * @throws NullPointerException     when an element of {@code invokers} is null
     * @throws IllegalArgumentException when an invoker serves another interface, or a listener vetoed the state
     */
    protected final void publish(URL consumerUrl, List<Invoker<T>> invokers) {
        publish(consumerUrl, invokers, null);
    }

    /**
     * {@link #publish(URL, List)}, the state checked by {@code joining} too (may be null): a
     * listener that {@link #onListenerRefusal} is finding a state for.
     */
    protected final void publish(URL consumerUrl, List<Invoker<T>> invokers, DirectoryListener<T> joining) {
        publish(consumerUrl, invokers, null, joining);
    }

    /**
     * {@link #publish(URL, List, DirectoryListener)}, the candidates routed by {@code router} (null:
     * keep the current router). A state is published when the URL, the members or the router
     * (by {@code equals}) changed.
     */
    protected final synchronized void publish(URL consumerUrl, List<Invoker<T>> invokers, Router<T> router,
                                              DirectoryListener<T> joining) {
        if (invokers != null) {
            checkMembers(invokers);
        }
        if (destroyed) {
            return;
        }
        DirectoryState<T> current = state;
        URL url = consumerUrl != null ? consumerUrl : current.url();
        boolean sameMembers = invokers == null || DirectoryState.sameMembers(current.allInvokers(), invokers);
        Router<T> routing = router != null ? router : current.routes().router();
        if (sameMembers && url.equals(current.url()) && routing.equals(current.routes().router())) {
            return;
        }
        DirectoryState<T> next = DirectoryState.of(url, sameMembers ? current.allInvokers() : invokers, routing,
                current.version() + 1, ejected);
        listeners.forEach(listener -> listener.check(next));
        if (joining != null) {
            joining.check(next);
        }
        state = next;
    }

    /**
     * Leaves the providers of {@code providers} (any view of each, {@link InvokerView#unwrap}) out of
     * the candidates of this and every later state, until a later call names them no more;
     * publishes a new state at once when that changes the members left out. Not vetoed. Ignored
     * after {@link #destroy()}.
     */
    public final synchronized void setEjected(Collection<? extends Invoker<?>> providers) {
        Set<Invoker<?>> next = providers.stream().map(InvokerView::unwrap).collect(Collectors.toUnmodifiableSet());
        if (destroyed || next.equals(ejected)) {
            return;
        }
        ejected = next;
        DirectoryState<T> current = state;
        state = current.withEjected(next, current.version() + 1);
    }

    private synchronized DirectoryState<T> publishAvailability(DirectoryState<T> seen) {
        DirectoryState<T> current = state;
        if (current != seen || destroyed) {
            return current;
        }
        state = current.rechecked(current.version() + 1);
        return state;
    }

    private void checkMembers(List<Invoker<T>> invokers) {
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
    }

    @Override
    public String toString() {
        DirectoryState<T> current = state;
        return getClass().getSimpleName() + "[" + type.getName() + ", " + current.allInvokers().size() + " invokers, " + current.url() + "]";
    }
}
