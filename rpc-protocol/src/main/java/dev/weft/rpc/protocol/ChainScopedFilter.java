package dev.weft.rpc.protocol;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;

/**
 * A {@link Filter} whose state belongs to one chain, such as the permits of the {@code actives}
 * filter: {@link FilterChain#wrap} asks it for the filter of each chain it builds, so the state
 * lives with the chain (one per referred or exported invoker), is shared by every call through
 * it, and goes when the chain does, with no table keyed by invoker.
 *
 * <p>The extension itself is the factory: it hands out chain filters (and may check URL keys, as a
 * {@link UrlCheckingFilter}); its own {@link #invoke} fails, because outside a chain there is no
 * state to count in.
 */
public interface ChainScopedFilter extends Filter {

    /**
     * The filter to put in one chain around {@code invoker} (the innermost invoker, whose URL the
     * chain was selected for): a new instance holding that chain's state. Called once per chain.
     */
    Filter forChain(Invoker<?> invoker);

    /**
     * Fails: this filter counts per chain.
     *
     * @throws IllegalStateException always, naming the filter and the way to use it
     */
    @Override
    default Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
        throw new IllegalStateException("Filter " + getClass().getName() + " invoked outside a chain (expected: "
                + "the filter its forChain returns, as FilterChain.wrap builds; it keeps state per chain)");
    }
}
