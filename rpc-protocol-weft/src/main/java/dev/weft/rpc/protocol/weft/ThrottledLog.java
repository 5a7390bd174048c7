package dev.weft.rpc.protocol.weft;

import com.google.common.base.Ticker;
import org.slf4j.Logger;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A warning that repeats (bad peers, late responses): logged at most once per interval, each line
 * with the number of occurrences since the previous one. Thread-safe.
 */
final class ThrottledLog {

    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final Logger logger;
    private final Ticker ticker;
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong nextLogNanos;

    ThrottledLog(Logger logger, Ticker ticker) {
        this.logger = logger;
        this.ticker = ticker;
        this.nextLogNanos = new AtomicLong(ticker.read());
    }

    /** Counts one occurrence and logs {@code message} with the count when the interval allows. */
    void warn(String message) {
        long n = count.incrementAndGet();
        long now = ticker.read();
        long next = nextLogNanos.get();
        if (now - next >= 0 && nextLogNanos.compareAndSet(next, now + INTERVAL_NANOS)) {
            count.addAndGet(-n);
            logger.warn("{} ({} such event(s) since the last line)", message, n);
        }
    }
}
