package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link Reply} that replies with another one and records the most calls its provider had in
 * flight ({@link FakeProvider#inFlight()}) while it ran: to check that a concurrency limit
 * ({@code actives}, {@code executes}, a strategy's forks) was never exceeded, or was reached.
 *
 * <pre>{@code
 * PeakInFlight peak = PeakInFlight.around(Reply.value("ok"));
 * FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a").answering(peak);
 * // ... many threads call through a limit of 3 ...
 * assertThat(peak.peak()).isBetween(1, 3);
 * }</pre>
 *
 * <p>The count is read as each call replies, before and after the inner reply (after any
 * {@link HeldCalls hold}), so it never exceeds the real peak; calls held together count together,
 * since a held call stays in flight until it returns. A reply that takes real time (a short sleep
 * in the inner reply) lets overlapping calls be seen in a stress test.
 *
 * <p>Thread-safe; use one per provider.
 */
public final class PeakInFlight implements Reply {

    private final Reply reply;
    private final AtomicInteger peak = new AtomicInteger();

    private PeakInFlight(Reply reply) {
        this.reply = reply;
    }

    /** Replies with {@code reply}, recording the peak. */
    public static PeakInFlight around(Reply reply) {
        return new PeakInFlight(Objects.requireNonNull(reply, "reply"));
    }

    @Override
    public Result reply(Invocation invocation, FakeProvider<?> provider) throws RpcException {
        record(provider);
        try {
            return reply.reply(invocation, provider);
        } finally {
            record(provider);
        }
    }

    private void record(FakeProvider<?> provider) {
        peak.accumulateAndGet(provider.inFlight(), Math::max);
    }

    /** The most calls in flight at the provider seen by a reply so far; 0 before the first call. */
    public int peak() {
        return peak.get();
    }

    /** {@code PeakInFlight[3]}. */
    @Override
    public String toString() {
        return "PeakInFlight[" + peak.get() + "]";
    }
}
