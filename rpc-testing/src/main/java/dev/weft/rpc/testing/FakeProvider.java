package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * A provider {@link Invoker} whose behaviour the test scripts: what a balancer, a cluster
 * strategy, a filter or a wrapper is tested against instead of a network.
 *
 * <pre>{@code
 * FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a").weight(200).answering("hello");
 * FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "b")
 *         .thenFail(Reply.networkError())     // first call: a network failure
 *         .thenAnswer("hi");                  // second call: "hi"; afterwards: its name, "b"
 * }</pre>
 *
 * <p><b>Behaviour.</b> Each call takes the next {@link Reply} queued with {@code then...}; when
 * the queue is empty it uses the standing reply set with {@code answering}/{@code failingWith}
 * (initially {@link Reply#providerName()}: the call answers the provider's name). Before
 * replying, a call may wait while {@link #holdCalls() held}, and advances a {@link FakeTicker}
 * by the provider's {@link #latency(Duration, FakeTicker) latency}, so statistics see that
 * latency without the test sleeping.
 *
 * <p><b>URL.</b> {@code weft://<name>:20880/<service>}: the name is the host, so providers
 * differ by address; {@link #weight}, {@link #warmup} and {@link #parameter} add keys, each
 * replacing the immutable URL atomically. Set them before handing the provider out, as a real
 * provider's URL does not change under a directory.
 *
 * <p><b>Records.</b> Every call is recorded when it arrives, in arrival order
 * ({@link #invocations()}), also in a shared {@link CallLog} when one is attached, including calls
 * that fail or arrive after {@link #destroy()}. {@link #inFlight()} counts calls not yet returned.
 *
 * <p><b>Availability.</b> {@link #available(boolean)} switches {@link #isAvailable()};
 * {@link #destroy()} makes the provider unavailable for good, and a call reaching it afterwards
 * fails with a network {@link RpcException} (a closed connection), so a strategy that calls a
 * destroyed provider is seen.
 *
 * <p>Thread-safe: every method may be called from any thread, while calls are running.
 * Identity-based {@code equals}, as invokers are.
 *
 * @param <T> the service interface
 */
public final class FakeProvider<T> implements Invoker<T> {

    /** Port of the fake URLs: any fixed value, since the host tells providers apart. */
    public static final int PORT = 20880;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9.-]*");
    private static final Duration DEFAULT_HOLD_BOUND = Duration.ofSeconds(30);

    private final Class<T> type;
    private final String name;
    private final AtomicReference<URL> url;
    private final ConcurrentLinkedQueue<Reply> script = new ConcurrentLinkedQueue<>();
    private volatile Reply standing = Reply.providerName();
    private final ConcurrentLinkedQueue<Invocation> invocations = new ConcurrentLinkedQueue<>();
    private volatile Invocation lastInvocation;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger availabilityChecks = new AtomicInteger();
    private final AtomicInteger urlReads = new AtomicInteger();
    private volatile Runnable availabilityHook = () -> { };
    private volatile boolean available = true;
    private volatile boolean destroyed;
    private final Object holdLock = new Object();
    private volatile HeldCalls hold;
    private volatile Duration latency = Duration.ZERO;
    private volatile FakeTicker ticker;
    private volatile CallLog log;

    private FakeProvider(Class<T> type, String name, URL url) {
        this.type = type;
        this.name = name;
        this.url = new AtomicReference<>(url);
    }

    /**
     * A provider of {@code type} named {@code name}, at {@code weft://<name>:20880/<type name>}.
     *
     * @throws IllegalArgumentException when {@code name} is not a host name (letters, digits, {@code .} and {@code -})
     */
    public static <T> FakeProvider<T> of(Class<T> type, String name) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        checkArgument(NAME.matcher(name).matches(),
                "name: '%s' (expected: a host name of letters, digits, '.' and '-', starting with a letter or digit)", name);
        return new FakeProvider<>(type, name, ProviderUrls.of(type, name));
    }

    /**
     * A provider of {@code type} at {@code url} (any URL: to test what a strategy does with its
     * keys); its {@link #name()} is the URL's host.
     */
    public static <T> FakeProvider<T> at(Class<T> type, URL url) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(url, "url");
        checkArgument(!url.getHost().isEmpty(), "url: %s (expected: a URL with a host, which names the provider)", url);
        return new FakeProvider<>(type, url.getHost(), url);
    }

    /** A provider of {@link FakeService} named {@code name}: for tests where the service does not matter. */
    public static FakeProvider<FakeService> named(String name) {
        return of(FakeService.class, name);
    }

    // ------------------------------------------------------------------ URL

    /** The name given at creation: the URL's host, and what {@link Reply#providerName()} answers. */
    public String name() {
        return name;
    }

    /**
     * Sets the {@code weight} key.
     *
     * @throws IllegalArgumentException when {@code weight} is negative
     */
    public FakeProvider<T> weight(int weight) {
        url.updateAndGet(current -> ProviderUrls.withWeight(current, weight));
        return this;
    }

    /**
     * Sets {@code warmup} to {@code period} and {@code timestamp} to {@code startedAtMillis}: a
     * provider that started at that wall-clock time and ramps its weight up over {@code period}.
     */
    public FakeProvider<T> warmup(Duration period, long startedAtMillis) {
        url.updateAndGet(current -> ProviderUrls.withWarmup(current, period, startedAtMillis));
        return this;
    }

    /** Sets URL key {@code key} to {@code value} ({@code method.key} for one method). */
    public FakeProvider<T> parameter(String key, String value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        url.updateAndGet(current -> current.addParameter(key, value));
        return this;
    }

    /** The current URL; each call is counted ({@link #urlReads()}). */
    @Override
    public URL getUrl() {
        urlReads.incrementAndGet();
        return url.get();
    }

    /**
     * How many times {@link #getUrl()} was called: to check that code reads a provider's
     * settings once per change rather than on every call.
     */
    public int urlReads() {
        return urlReads.get();
    }

    @Override
    public Class<T> getInterface() {
        return type;
    }

    // ------------------------------------------------------------------ script

    /** Every call that finds no queued reply answers {@code value} (may be {@code null}). */
    public FakeProvider<T> answering(Object value) {
        return answering(Reply.value(value));
    }

    /** Every call that finds no queued reply uses {@code reply}. */
    public FakeProvider<T> answering(Reply reply) {
        standing = Objects.requireNonNull(reply, "reply");
        return this;
    }

    /**
     * Every call that finds no queued reply fails with {@code failure}: thrown when it is an
     * {@link RpcException} (use {@link Reply#networkError()} and friends for fresh ones), otherwise
     * carried in the result as the service's exception ({@link Reply#failure}).
     */
    public FakeProvider<T> failingWith(Throwable failure) {
        return answering(Reply.failure(failure));
    }

    /** Every call that finds no queued reply uses {@code reply}; same as {@link #answering(Reply)}. */
    public FakeProvider<T> failingWith(Reply reply) {
        return answering(reply);
    }

    /** Queues one call that answers {@code value}. */
    public FakeProvider<T> thenAnswer(Object value) {
        return then(Reply.value(value));
    }

    /** Queues one call that fails with {@code failure}, as {@link #failingWith(Throwable)} describes. */
    public FakeProvider<T> thenFail(Throwable failure) {
        return then(Reply.failure(failure));
    }

    /** Queues one call that uses {@code reply}, e.g. {@code thenFail(Reply.timeout())}. */
    public FakeProvider<T> thenFail(Reply reply) {
        return then(reply);
    }

    /** Queues one call per reply, in order; they run before the standing reply. */
    public FakeProvider<T> then(Reply... replies) {
        Objects.requireNonNull(replies, "replies");
        for (Reply reply : replies) {
            script.add(Objects.requireNonNull(reply, "replies[i]"));
        }
        return this;
    }

    /** Queued replies not used yet. */
    public int queued() {
        return script.size();
    }

    /**
     * Every call advances {@code ticker} by {@code latency} before replying: the call took that
     * long, as far as anything reading {@code ticker} can tell. {@link Duration#ZERO} turns it off.
     */
    public FakeProvider<T> latency(Duration latency, FakeTicker ticker) {
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(ticker, "ticker");
        checkArgument(!latency.isNegative(), "latency: %s (expected: >= 0)", latency);
        this.ticker = ticker;
        this.latency = latency;
        return this;
    }

    /**
     * From now on, every call waits until the returned handle releases it (at most 30 s, then it
     * fails with a timeout). Replaces an earlier hold, which is released.
     */
    public HeldCalls holdCalls() {
        return holdCalls(DEFAULT_HOLD_BOUND);
    }

    /** As {@link #holdCalls()}, with {@code bound} as the longest a call waits before failing. */
    public HeldCalls holdCalls(Duration bound) {
        HeldCalls fresh = new HeldCalls(this, bound);
        HeldCalls previous;
        synchronized (holdLock) {
            previous = hold;
            hold = fresh;
        }
        if (previous != null) {
            previous.releaseAll();
        }
        return fresh;
    }

    void endHold(HeldCalls ended) {
        synchronized (holdLock) {
            if (hold == ended) {
                hold = null;
            }
        }
    }

    /** Records every call in {@code log} too, from now on. */
    public FakeProvider<T> loggingTo(CallLog log) {
        this.log = Objects.requireNonNull(log, "log");
        return this;
    }

    // ------------------------------------------------------------------ availability

    /** Sets what {@link #isAvailable()} answers (until {@link #destroy()}). */
    public FakeProvider<T> available(boolean available) {
        this.available = available;
        return this;
    }

    /**
     * Runs {@code hook} at every {@link #isAvailable()} call, before the answer is read: to change
     * something exactly when a strategy checks availability (the provider goes down between the
     * check and the call, say).
     */
    public FakeProvider<T> onAvailabilityCheck(Runnable hook) {
        this.availabilityHook = Objects.requireNonNull(hook, "hook");
        return this;
    }

    /** Whether set available and not destroyed; each call is counted and runs the hook, if any. */
    @Override
    public boolean isAvailable() {
        availabilityChecks.incrementAndGet();
        availabilityHook.run();
        return available && !destroyed;
    }

    /** How many times {@link #isAvailable()} was asked. */
    public int availabilityChecks() {
        return availabilityChecks.get();
    }

    /** Marks the provider destroyed: unavailable, and calls fail with a network error. Releases held calls. */
    @Override
    public void destroy() {
        destroyed = true;
        HeldCalls current = hold;
        if (current != null) {
            current.releaseAll();
        }
    }

    public boolean isDestroyed() {
        return destroyed;
    }

    // ------------------------------------------------------------------ calls

    /**
     * Records the call, then: fails if destroyed, waits while held, advances the ticker by the
     * latency, and returns what the next queued reply or the standing one returns (even
     * {@code null}, to test code that must survive an invoker breaking its contract).
     */
    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        Objects.requireNonNull(invocation, "invocation");
        invocations.add(invocation);
        lastInvocation = invocation;
        calls.incrementAndGet();
        CallLog shared = log;
        if (shared != null) {
            shared.add(name, invocation);
        }
        inFlight.incrementAndGet();
        try {
            if (destroyed) {
                throw new RpcException(RpcException.NETWORK_EXCEPTION, "fake provider " + name
                        + " is destroyed (method " + invocation.getMethodName() + ")");
            }
            HeldCalls current = hold;
            if (current != null) {
                current.hold(invocation);
            }
            Duration took = latency;
            FakeTicker clock = ticker;
            if (clock != null && !took.isZero()) {
                clock.advance(took);
            }
            Reply next = script.poll();
            return (next != null ? next : standing).reply(invocation, this);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** Every call received so far, in arrival order. */
    public List<Invocation> invocations() {
        return List.copyOf(invocations);
    }

    /**
     * The most recent call received.
     *
     * @throws IllegalStateException when no call arrived yet
     */
    public Invocation lastInvocation() {
        Invocation last = lastInvocation;
        if (last == null) {
            throw new IllegalStateException("calls of fake provider " + name + ": 0 (expected: at least one)");
        }
        return last;
    }

    /** The method name of every call received so far, in arrival order. */
    public List<String> methods() {
        List<String> names = new ArrayList<>();
        for (Invocation invocation : invocations) {
            names.add(invocation.getMethodName());
        }
        return names;
    }

    /** Calls received so far. */
    public int calls() {
        return calls.get();
    }

    /** Calls received and not yet returned (held, or still replying). */
    public int inFlight() {
        return inFlight.get();
    }

    /**
     * {@code FakeProvider[a, weft://a:20880/com.example.Greeting?weight=200, calls=3, inFlight=1, available]}:
     * for assertion messages.
     */
    @Override
    public String toString() {
        String state = destroyed ? "destroyed" : available ? "available" : "unavailable";
        return "FakeProvider[" + name + ", " + url.get() + ", calls=" + calls.get() + ", inFlight=" + inFlight.get()
                + ", " + state + (script.isEmpty() ? "" : ", queued=" + script.size()) + "]";
    }
}
