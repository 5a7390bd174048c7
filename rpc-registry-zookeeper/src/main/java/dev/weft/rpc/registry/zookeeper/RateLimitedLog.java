package dev.weft.rpc.registry.zookeeper;

import com.google.common.base.Ticker;
import org.slf4j.Logger;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * Warns about a repeated failure at most once per interval per key, with the number of
 * occurrences since the last line, so an outage gives a few lines and no stack trace per call.
 * Thread-safe. Keys are the few node paths and operations of one registry.
 */
final class RateLimitedLog {

    private final Logger log;
    private final Ticker ticker;
    private final long intervalNanos;
    private final ConcurrentMap<String, Window> windows = new ConcurrentHashMap<>();

    RateLimitedLog(Logger log, Ticker ticker, long interval, TimeUnit unit) {
        this.log = log;
        this.ticker = ticker;
        this.intervalNanos = unit.toNanos(interval);
    }

    /** Logs {@code message} (with {@code cause}'s message, not its stack) unless logged under {@code key} recently. */
    void warn(String key, String message, Throwable cause) {
        long now = ticker.read();
        Window window = windows.computeIfAbsent(key, k -> new Window());
        long suppressed;
        synchronized (window) {
            window.count++;
            if (window.loggedAt != Long.MIN_VALUE && now - window.loggedAt < intervalNanos) {
                return;
            }
            suppressed = window.count - 1;
            window.count = 0;
            window.loggedAt = now;
        }
        String reason = cause == null ? "" : ": " + describe(cause);
        if (suppressed > 0) {
            log.warn("{}{} ({} more since the last report)", message, reason, suppressed);
        } else {
            log.warn("{}{}", message, reason);
        }
    }

    /** Forgets {@code key}, so its next failure is logged at once. */
    void reset(String key) {
        windows.remove(key);
    }

    static String describe(Throwable cause) {
        String text = cause.getMessage();
        return cause.getClass().getSimpleName() + (text == null ? "" : " " + text);
    }

    private static final class Window {
        long loggedAt = Long.MIN_VALUE;
        long count;
    }
}
