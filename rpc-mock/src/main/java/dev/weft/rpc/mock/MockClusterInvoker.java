package dev.weft.rpc.mock;

import dev.weft.rpc.cluster.AbstractDirectory;
import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.Results;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.ThrottledLog;
import dev.weft.rpc.common.URL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The invoker {@link MockClusterWrapper} puts in front of every cluster invoker: it degrades
 * calls according to the {@code mock} keys of the directory's <em>current</em> URL.
 *
 * <ul>
 *   <li>No mock for the method (absent, empty or {@code false}): the call goes straight to the
 *       cluster invoker. The cost is one volatile read, one identity comparison of the URL and,
 *       when any mock is configured, one map lookup.</li>
 *   <li>{@code force}: the cluster is not called; the mock answers.</li>
 *   <li>{@code fail}: the cluster is called; a non-business {@link RpcException}, thrown or
 *       carried in the {@link Result}, is answered by the mock (the failure is attached to the
 *       mock's error, if any). Business exceptions pass through untouched.</li>
 *   <li>When the mock answers, {@code mock}-protocol invokers of the directory (listed with the
 *       {@value AbstractDirectory#NEED_MOCK_ATTACHMENT} attachment) answer in preference to the
 *       URL expression.</li>
 * </ul>
 *
 * <p>The URL is read on every call; when its identity differs from the last one seen, the mock
 * keys are re-checked. A valid change takes effect at once (logged at INFO); an invalid one is
 * rejected, logged at WARN with the full error and counted ({@link #getRejectedUpdates()}), and
 * the previous valid configuration keeps serving. Each call reads one immutable configuration
 * snapshot, so it is answered consistently by exactly one mode even while the URL flips.
 *
 * <p>Thread-safe.
 */
public final class MockClusterInvoker<T> implements Invoker<T> {

    private static final Logger LOG = LoggerFactory.getLogger(MockClusterInvoker.class);
    /** The least time between two WARN lines about outages the mock answers; the lines count the others. */
    static final Duration OUTAGE_LOG_INTERVAL = Duration.ofSeconds(10);

    private final Directory<T> directory;
    private final Invoker<T> invoker;
    private final MockSupport support;
    private final Object refreshLock = new Object();
    private volatile State<T> state;
    private final AtomicLong rejectedUpdates = new AtomicLong();
    /** The veto registered with the directory, or null when the directory takes no listeners. */
    private final MockKeysCheck<T> check;
    private final LongAdder mockAnswers = new LongAdder();
    private final LongAdder failuresMasked = new LongAdder();
    /** True while calls are failing and being answered by the mock; an outage starts when it turns true. */
    private volatile boolean degraded;
    /** One WARN line per outage start, at most one per {@link #OUTAGE_LOG_INTERVAL}: a flapping provider does not flood the log. */
    private final ThrottledLog outageLog;

    MockClusterInvoker(Directory<T> directory, Invoker<T> invoker, MockInvoker<T> initial, MockSupport support) {
        this(directory, invoker, initial, support, null);
    }

    /**
     * With {@code check} (may be null) registered with {@code directory}: states whose mock keys
     * cannot work are vetoed there, and counted in {@link #getRejectedUpdates()}.
     */
    MockClusterInvoker(Directory<T> directory, Invoker<T> invoker, MockInvoker<T> initial, MockSupport support,
                       MockKeysCheck<T> check) {
        this.check = check;
        this.directory = Objects.requireNonNull(directory, "directory");
        this.invoker = Objects.requireNonNull(invoker, "invoker");
        this.support = Objects.requireNonNull(support, "support");
        this.state = new State<>(initial.getUrl(), initial, null);
        this.outageLog = new ThrottledLog(support.outageLogger(), support.ticker(), OUTAGE_LOG_INTERVAL);
        if (!initial.isEmpty()) {
            LOG.info("Mock configuration of {}: {}", directory.getInterface().getName(), initial);
        }
    }

    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        State<T> current = state;
        URL url = directory.getUrl();
        if (url != current.seen) {
            current = refresh();
        }
        MockInvoker<T> mock = current.active;
        if (mock.isEmpty()) {
            return invoker.invoke(invocation);
        }
        return invokeWithMock(mock, invocation);
    }

    /** A call while some mock is configured (kept out of {@link #invoke} so the pass-through stays small enough to inline). */
    private Result invokeWithMock(MockInvoker<T> mock, Invocation invocation) {
        MethodMock methodMock = mock.find(invocation);
        if (methodMock == null) {
            return invoker.invoke(invocation);
        }
        if (methodMock.mode() == MockMode.FORCE) {
            return answer(mock, methodMock, invocation, null);
        }
        Result result;
        try {
            result = invoker.invoke(invocation);
        } catch (RpcException e) {
            if (e.isBiz()) {
                throw e;
            }
            return answer(mock, methodMock, invocation, e);
        }
        if (result == null) { // a broken invoker: a failure like any other, so the mock answers it
            return answer(mock, methodMock, invocation, new RpcException(RpcException.UNKNOWN_EXCEPTION,
                    "Result of " + directory.getInterface().getName() + "." + RpcInvocation.signature(invocation)
                            + ": null (expected: a Result from " + invoker + ")"));
        }
        // the same path whether the call ended already or ends later: the mock answers the failure that ends it
        return Results.throwIfFailed(Results.then(result, (answer, failure) -> {
            if (failure == null) {
                if (answer.hasException() && answer.getException() instanceof RpcException carried && !carried.isBiz()) {
                    return answer(mock, methodMock, invocation, carried);
                }
                if (degraded) {
                    degraded = false;
                    LOG.debug("Calls of {} succeed again; mock {} no longer answering", directory.getInterface().getName(), methodMock);
                }
                return answer;
            }
            if (!(failure instanceof RpcException rpc) || rpc.isBiz() || rpc.isCancelled()) {
                return AsyncResult.failed(failure);
            }
            return answer(mock, methodMock, invocation, rpc);
        }));
    }

    private Result answer(MockInvoker<T> mock, MethodMock methodMock, Invocation invocation, RpcException failure) {
        mockAnswers.increment();
        if (failure != null) {
            failuresMasked.increment();
            if (!degraded) {
                degraded = true;
                outageLog.warn("Call " + directory.getInterface().getName() + "." + RpcInvocation.signature(invocation)
                        + " failed, answering with mock " + methodMock + " until calls succeed again", failure);
            } else if (LOG.isDebugEnabled()) {
                LOG.debug("Call {}.{} failed, answered by mock {}: {}", directory.getInterface().getName(),
                        RpcInvocation.signature(invocation), methodMock, failure.toString());
            }
        }
        RpcInvocation mockCall = mockInvocation(invocation);
        List<Invoker<T>> mockInvokers = mockInvokers(mockCall);
        if (!mockInvokers.isEmpty()) {
            try {
                return MethodMock.mocked(mockInvokers.get(0).invoke(mockCall));
            } catch (RuntimeException e) {
                throw mock.mockFailed(methodMock, invocation, failure, e);
            }
        }
        return mock.answer(methodMock, invocation, failure);
    }

    private List<Invoker<T>> mockInvokers(Invocation mockCall) {
        try {
            return directory.list(mockCall);
        } catch (RpcException e) {
            LOG.debug("Cannot list mock invokers of {}: {}", directory.getInterface().getName(), e.toString());
            return List.of();
        }
    }

    private static RpcInvocation mockInvocation(Invocation invocation) {
        RpcInvocation copy = RpcInvocation.copyOf(invocation);
        copy.setAttachment(AbstractDirectory.NEED_MOCK_ATTACHMENT, "true");
        return copy;
    }

    /**
     * Re-checks the mock keys after the directory URL changed; never throws. Uses the directory's
     * latest URL, not the caller's possibly stale one, so the configuration never moves back to
     * an older URL and each URL is checked once.
     */
    private State<T> refresh() {
        synchronized (refreshLock) {
            State<T> current = state;
            URL url = directory.getUrl();
            if (current.seen == url) {
                return current;
            }
            Map<String, String> keys = MockKeysCheck.mockKeys(url);
            State<T> next;
            if (keys.equals(MockKeysCheck.mockKeys(current.active.getUrl()))) {
                next = new State<>(url, current.active, null);
            } else if (keys.equals(current.rejectedKeys)) {
                next = new State<>(url, current.active, current.rejectedKeys);
            } else {
                try {
                    MockInvoker<T> checked = MockInvoker.create(directory.getInterface(), url, support);
                    LOG.info("Mock configuration of {} changed: {}", directory.getInterface().getName(), checked);
                    next = new State<>(url, checked, null);
                } catch (MockConfigurationException e) {
                    rejectedUpdates.incrementAndGet();
                    LOG.warn("Rejected mock configuration of {} from URL {}; still serving {}:\n{}",
                            directory.getInterface().getName(), url, current.active, e.getMessage());
                    next = new State<>(url, current.active, keys);
                }
            }
            state = next;
            return next;
        }
    }

    /** The mock configuration serving calls now (the last valid one). */
    public MockInvoker<T> getMockInvoker() {
        State<T> current = state;
        URL url = directory.getUrl();
        return url == current.seen ? current.active : refresh().active;
    }

    /** How many URL updates were rejected because their mock keys were invalid. */
    public long getRejectedUpdates() {
        return rejectedUpdates.get() + (check == null ? 0 : check.refusals());
    }

    /** How many calls the mock answered (force and fail mode). */
    public long getMockAnswers() {
        return mockAnswers.sum();
    }

    /** How many failed calls (fail mode) the mock answered instead of the failure. */
    public long getFailuresMasked() {
        return failuresMasked.sum();
    }

    /** The directory's current consumer URL. */
    @Override
    public URL getUrl() {
        return directory.getUrl();
    }

    @Override
    public Class<T> getInterface() {
        return directory.getInterface();
    }

    @Override
    public boolean isAvailable() {
        return invoker.isAvailable();
    }

    @Override
    public void destroy() {
        invoker.destroy();
    }

    @Override
    public String toString() {
        return "MockClusterInvoker[" + invoker + ", " + state.active + "]";
    }

    /** The last URL seen, the configuration serving, and the mock keys of the last rejected URL. */
    private static final class State<T> {
        final URL seen;
        final MockInvoker<T> active;
        final Map<String, String> rejectedKeys;

        State(URL seen, MockInvoker<T> active, Map<String, String> rejectedKeys) {
            this.seen = seen;
            this.active = active;
            this.rejectedKeys = rejectedKeys;
        }
    }
}
