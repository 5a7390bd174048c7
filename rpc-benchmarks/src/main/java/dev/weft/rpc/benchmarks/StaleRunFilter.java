package dev.weft.rpc.benchmarks;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.protocol.ChainScopedFilter;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;

import java.util.concurrent.atomic.LongAdder;

/**
 * Benchmark-only provider filter {@code stale-runs}, the last before the implementation: with
 * {@code stale-runs=true} it counts the calls carrying {@link GiveUpStampFilter#ATTACHMENT} and,
 * of those, the ones about to run after their caller gave up (the attachment's instant has passed on
 * this host's monotonic clock). Counted in the director's {@link Counts}. Thread-safe.
 */
@Activate(group = FilterChain.PROVIDER, value = StaleRunFilter.KEY, order = Integer.MAX_VALUE)
public final class StaleRunFilter implements ChainScopedFilter, ExtensionDirectorAware {

    /** Provider URL key: {@code true} to count. */
    public static final String KEY = "stale-runs";

    private volatile Counts counts = new Counts();

    /** Stamped calls that reached the implementation, and those that did after their caller gave up. */
    public static final class Counts {
        final LongAdder stamped = new LongAdder();
        final LongAdder stale = new LongAdder();

        public long stamped() {
            return stamped.sum();
        }

        public long stale() {
            return stale.sum();
        }
    }

    public static Counts countsOf(ExtensionDirector director) {
        return director.getService(Counts.class, d -> new Counts());
    }

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        counts = countsOf(director);
    }

    @Override
    public Filter forChain(Invoker<?> invoker) {
        Counts counted = counts;
        return (next, invocation) -> {
            String giveUp = invocation.getAttachment(GiveUpStampFilter.ATTACHMENT);
            if (giveUp != null) {
                counted.stamped.increment();
                if (System.nanoTime() - Long.parseLong(giveUp) > 0) {
                    counted.stale.increment();
                }
            }
            return next.invoke(invocation);
        };
    }
}
