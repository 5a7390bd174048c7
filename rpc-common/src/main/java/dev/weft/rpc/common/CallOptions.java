package dev.weft.rpc.common;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * What travels with one call, and with each of its attempts, besides its arguments and
 * attachments: read by filters and protocols from {@link Invocation#getCallOptions()}, set with
 * {@link RpcInvocation#setCallOptions}. Never sent to the provider as such (a protocol sends what
 * it needs of it, such as the remaining deadline).
 * <ul>
 *   <li>{@link #url()}: the URL whose keys apply to this call at the invoker it reaches, when it
 *       differs from that invoker's own (a registry directory's view of a provider with override
 *       rules applied); {@code null} otherwise. Read it with {@link #urlOf}.</li>
 *   <li>{@link #deadline()}: the absolute deadline of the call (the {@code call-timeout} budget,
 *       then narrowed per attempt), {@code null} when there is none; a protocol ends each attempt
 *       at the earlier of this and its own per-attempt {@code timeout}.</li>
 *   <li>{@link #attempt()}: 0 outside a cluster; 1 for the first attempt at a provider, 2 for the
 *       next (a retry, a fork, a broadcast's next provider), and so on.</li>
 *   <li>{@link #executor()}: where a protocol completes the call's result, so that what follows the
 *       call (decoding the answer, filters' end-of-call actions, the caller's callbacks) never runs
 *       on a network I/O thread; {@code null}: the protocol's own callback executor. A sync proxy
 *       call passes a {@link ThreadlessExecutor}, so the answer is decoded on the waiting caller's
 *       thread.</li>
 *   <li>{@link #cancellation()}: the call's cancellation signal, shared by its attempts.</li>
 *   <li>{@link #admittedOnReceipt()}: provider side, true when the protocol admitted the call under
 *       its method's adaptive execution limit ({@code executes=auto}) as it received it, before the
 *       call queued for a business thread, and ends that admission when the call ends; the
 *       {@code executes} filter leaves such a call to it. Set by the server, never from anything a
 *       peer sent.</li>
 * </ul>
 *
 * <p>Immutable and thread-safe; the {@code withX} methods return a new value.
 */
public final class CallOptions {

    /** No view URL, no deadline, attempt 0, the protocol's executor, not cancellable, not admitted on receipt. */
    public static final CallOptions DEFAULT = new CallOptions(null, null, 0, null, Cancellation.NONE, false);

    private final URL url;
    private final Deadline deadline;
    private final int attempt;
    private final Executor executor;
    private final Cancellation cancellation;
    private final boolean admittedOnReceipt;

    private CallOptions(URL url, Deadline deadline, int attempt, Executor executor, Cancellation cancellation,
                        boolean admittedOnReceipt) {
        this.url = url;
        this.deadline = deadline;
        this.attempt = attempt;
        this.executor = executor;
        this.cancellation = cancellation;
        this.admittedOnReceipt = admittedOnReceipt;
    }

    /** The URL whose keys apply to this call at the invoker it reaches, or {@code null} for that invoker's own. */
    public URL url() {
        return url;
    }

    /** The call's absolute deadline, or {@code null} when it has none. */
    public Deadline deadline() {
        return deadline;
    }

    /** The attempt number: 0 outside a cluster, then 1, 2, ... */
    public int attempt() {
        return attempt;
    }

    /** Where the call's result is completed, or {@code null} for the protocol's own callback executor. */
    public Executor executor() {
        return executor;
    }

    /** The call's cancellation signal; never {@code null}. */
    public Cancellation cancellation() {
        return cancellation;
    }

    /** Provider side: whether the protocol admitted the call under its {@code executes=auto} limit as it received it. */
    public boolean admittedOnReceipt() {
        return admittedOnReceipt;
    }

    public CallOptions withUrl(URL url) {
        return url == this.url ? this : new CallOptions(url, deadline, attempt, executor, cancellation, admittedOnReceipt);
    }

    public CallOptions withDeadline(Deadline deadline) {
        return deadline == this.deadline ? this : new CallOptions(url, deadline, attempt, executor, cancellation, admittedOnReceipt);
    }

    /** These options with the deadline the earlier of the current one and {@code deadline}. */
    public CallOptions withEarlierDeadline(Deadline deadline) {
        return deadline == null ? this : withDeadline(deadline.minimum(this.deadline));
    }

    /**
     * @throws IllegalArgumentException when {@code attempt} is negative
     */
    public CallOptions withAttempt(int attempt) {
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt: " + attempt + " (expected: >= 0)");
        }
        return attempt == this.attempt ? this : new CallOptions(url, deadline, attempt, executor, cancellation, admittedOnReceipt);
    }

    public CallOptions withExecutor(Executor executor) {
        return executor == this.executor ? this : new CallOptions(url, deadline, attempt, executor, cancellation, admittedOnReceipt);
    }

    public CallOptions withCancellation(Cancellation cancellation) {
        Objects.requireNonNull(cancellation, "cancellation");
        return cancellation == this.cancellation ? this : new CallOptions(url, deadline, attempt, executor, cancellation, admittedOnReceipt);
    }

    /** These options, admitted (or not) by the provider's protocol as it received the call. */
    public CallOptions withAdmittedOnReceipt(boolean admittedOnReceipt) {
        return admittedOnReceipt == this.admittedOnReceipt ? this
                : new CallOptions(url, deadline, attempt, executor, cancellation, admittedOnReceipt);
    }

    /**
     * The URL whose keys apply to this call of {@code invoker}: the options' {@link #url()} when set,
     * else {@code invoker.getUrl()}.
     */
    public static URL urlOf(Invoker<?> invoker, Invocation invocation) {
        URL viewed = invocation.getCallOptions().url();
        return viewed != null ? viewed : invoker.getUrl();
    }

    @Override
    public String toString() {
        return "CallOptions[attempt=" + attempt + (deadline != null ? ", " + deadline : "") + (url != null ? ", url=" + url : "")
                + (executor != null ? ", executor=" + executor : "") + (cancellation.isCancelled() ? ", cancelled" : "")
                + (admittedOnReceipt ? ", admitted on receipt" : "") + "]";
    }
}
