package dev.weft.rpc.benchmarks;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.ChainScopedFilter;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * Benchmark-only provider filter {@code fault}: with {@code fault=busy:0.5} it answers that share
 * of the calls "busy" ({@code NOT_PROCESSED}, as the {@code executes} filter does); every call
 * reaching it is counted in the director's {@link Counts} ({@code fault=busy:0} only counts). Thread-safe.
 */
@Activate(group = FilterChain.PROVIDER, value = FaultFilter.KEY, order = 10)
public final class FaultFilter implements ChainScopedFilter, ExtensionDirectorAware {

    /** Provider URL key: {@code busy:<share>}. */
    public static final String KEY = "fault";

    private volatile Counts counts = new Counts();

    /** Calls that reached the filters of one director, and those it failed. */
    public static final class Counts {
        final LongAdder attempts = new LongAdder();
        final LongAdder faults = new LongAdder();

        public long attempts() {
            return attempts.sum();
        }

        public long faults() {
            return faults.sum();
        }
    }

    /** The counts of {@code director}'s fault filters. */
    public static Counts countsOf(ExtensionDirector director) {
        return director.getService(Counts.class, d -> new Counts());
    }

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        counts = countsOf(director);
    }

    @Override
    public Filter forChain(Invoker<?> invoker) {
        String setting = invoker.getUrl().getParameter(KEY, "busy:0");
        if (!setting.startsWith("busy:")) {
            throw new IllegalArgumentException("fault: " + setting + " (expected: busy:<share from 0 to 1>)");
        }
        double share = Double.parseDouble(setting.substring("busy:".length()));
        Counts counted = counts;
        return (next, invocation) -> {
            counted.attempts.increment();
            if (ThreadLocalRandom.current().nextDouble() < share) {
                counted.faults.increment();
                throw new RpcException(RpcException.NOT_PROCESSED, "benchmark busy answer at " + next.getUrl().getAddress());
            }
            return next.invoke(invocation);
        };
    }
}
