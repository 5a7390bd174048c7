package dev.weft.rpc.benchmarks;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.protocol.ChainScopedFilter;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;

import java.util.concurrent.TimeUnit;

/**
 * Benchmark-only consumer filter {@code give-up-stamp}: with {@code give-up-stamp=<ms>} (the
 * attempt's {@code timeout}) each attempt carries the attachment {@value #ATTACHMENT}, this JVM's
 * {@link System#nanoTime()} at which its caller gives up on it (read before the protocol reads its
 * own, so never later than the real deadline). A provider on the same host, whose
 * {@code System.nanoTime()} is the same monotonic clock, counts with {@link StaleRunFilter} the
 * calls it runs after that instant. Thread-safe.
 */
@Activate(group = FilterChain.CONSUMER, value = GiveUpStampFilter.KEY)
public final class GiveUpStampFilter implements ChainScopedFilter {

    /** Consumer URL key: the attempt's timeout in ms. */
    public static final String KEY = "give-up-stamp";
    /** The attachment: {@code System.nanoTime()} at which the caller gives up on the attempt. */
    public static final String ATTACHMENT = "bench.give-up-nanos";

    @Override
    public Filter forChain(Invoker<?> invoker) {
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(invoker.getUrl().getParameter(KEY, 0L));
        if (timeoutNanos <= 0) {
            throw new IllegalArgumentException(KEY + ": " + invoker.getUrl().getParameter(KEY) + " (expected: ms > 0)");
        }
        return (next, invocation) -> {
            // in place on the attempt's invocation (a retry stamps its own), else on a copy
            RpcInvocation stamped = invocation instanceof RpcInvocation own ? own : RpcInvocation.copyOf(invocation);
            stamped.setAttachment(ATTACHMENT, Long.toString(System.nanoTime() + timeoutNanos));
            return next.invoke(stamped);
        };
    }
}
