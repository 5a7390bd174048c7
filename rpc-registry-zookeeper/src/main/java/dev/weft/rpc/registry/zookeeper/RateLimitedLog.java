package dev.weft.rpc.registry.zookeeper;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.ThrottledLog;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * Repeated warnings of one registry, rate-limited per key (a node path, an operation) with
 * {@link ThrottledLog}: an outage gives a few lines with counts, and a failure of one path never
 * hides the first warning about another. Thread-safe. Keys are the few node paths and operations
 * of one registry.
 */
final class RateLimitedLog {

    private final Logger log;
    private final Ticker ticker;
    private final Duration interval;
    private final ConcurrentMap<String, ThrottledLog> byKey = new ConcurrentHashMap<>();

    RateLimitedLog(Logger log, Ticker ticker, long interval, TimeUnit unit) {
        this.log = log;
        this.ticker = ticker;
        this.interval = Duration.ofNanos(unit.toNanos(interval));
    }

    /** Logs {@code message} (with {@code cause}'s class and message, not its stack) unless logged under {@code key} recently. */
    void warn(String key, String message, Throwable cause) {
        ThrottledLog line = byKey.computeIfAbsent(key, k -> new ThrottledLog(log, ticker, interval));
        if (cause == null) {
            line.warn(message);
        } else {
            line.warn(message, cause);
        }
    }

    /** Forgets {@code key}, so its next failure is logged at once. */
    void reset(String key) {
        byKey.remove(key);
    }
}
