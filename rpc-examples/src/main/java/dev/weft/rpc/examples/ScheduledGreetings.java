package dev.weft.rpc.examples;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A provider of the async tour: returns an incomplete future at once and completes it from a shared
 * timer after {@code delayNanos}, so no business thread waits for a pending call. A name starting
 * with {@link #HOLD} is never answered (it waits for its caller to cancel it), one starting with
 * {@link #SLOW} only after {@link #SLOW_MILLIS}. Counts its runs, the calls it holds unanswered, the
 * most it held at once and the held calls cancelled. Thread-safe.
 */
final class ScheduledGreetings implements AsyncGreetingService {

    /** Names never answered: the cancel demonstration. */
    static final String HOLD = "hold-";
    /** Names answered only after {@link #SLOW_MILLIS}: the {@code call-timeout} demonstration. */
    static final String SLOW = "slow-";
    static final long SLOW_MILLIS = 5_000;

    private final GreetingServiceImpl answers;
    private final long delayNanos;
    private final ScheduledExecutorService timer;
    private final AtomicInteger runs = new AtomicInteger();
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger mostPending = new AtomicInteger();
    private final AtomicInteger cancelled = new AtomicInteger();

    ScheduledGreetings(String providerName, long delayNanos, ScheduledExecutorService timer) {
        this.answers = new GreetingServiceImpl(Objects.requireNonNull(providerName, "providerName"));
        this.delayNanos = delayNanos;
        this.timer = Objects.requireNonNull(timer, "timer");
    }

    @Override
    public CompletableFuture<String> greet(String name) {
        runs.incrementAndGet();
        mostPending.accumulateAndGet(pending.incrementAndGet(), Math::max);
        CompletableFuture<String> answer = new CompletableFuture<>();
        answer.whenComplete((value, failure) -> {
            pending.decrementAndGet();
            if (failure instanceof CancellationException) {
                cancelled.incrementAndGet();
            }
        });
        if (!name.startsWith(HOLD)) {
            long delay = name.startsWith(SLOW) ? TimeUnit.MILLISECONDS.toNanos(SLOW_MILLIS) : delayNanos;
            timer.schedule(() -> answer.complete(answers.greet(name)), delay, TimeUnit.NANOSECONDS);
        }
        return answer;
    }

    /** Calls that reached this provider's implementation. */
    int runs() {
        return runs.get();
    }

    /** The most calls this provider held unanswered at once. */
    int mostPending() {
        return mostPending.get();
    }

    /** Held calls whose future was cancelled (by the consumer's cancel, or a deadline passing). */
    int cancelled() {
        return cancelled.get();
    }
}
