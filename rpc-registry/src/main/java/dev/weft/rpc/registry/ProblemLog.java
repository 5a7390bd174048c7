package dev.weft.rpc.registry;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import org.slf4j.Logger;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Reports bad registry input (a rule that cannot apply, a provider URL that cannot be used) once
 * per distinct message, and counts every occurrence. The same bad node is seen again on every
 * refresh; logging it each time would drown the log. Remembers at most {@value #REMEMBERED}
 * messages (the least recently seen are forgotten and may be logged again). Thread-safe.
 */
final class ProblemLog {

    static final int REMEMBERED = 1024;

    private final Logger log;
    private final Cache<String, AtomicLong> seen = CacheBuilder.newBuilder().maximumSize(REMEMBERED).build();
    private final AtomicLong total = new AtomicLong();

    ProblemLog(Logger log) {
        this.log = log;
    }

    /** Records {@code message}; logs it at WARN the first time it is seen, and then returns true. */
    boolean report(String message) {
        total.incrementAndGet();
        AtomicLong count = seen.asMap().computeIfAbsent(message, m -> new AtomicLong());
        long n = count.incrementAndGet();
        if (n == 1) {
            log.warn("{} (ignored; reported once)", message);
        } else if (Long.bitCount(n) == 1) {
            log.warn("{} (ignored; seen {} times)", message, n);
        }
        return n == 1;
    }

    /** Every report so far, repeats included. */
    long total() {
        return total.get();
    }
}
