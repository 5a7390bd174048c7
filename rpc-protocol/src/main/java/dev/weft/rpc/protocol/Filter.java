package dev.weft.rpc.protocol;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.spi.SPI;

/**
 * One link of a filter chain, which {@link FilterChain} builds: the {@code consumer} chain (one
 * attempt at one provider), the {@code provider} chain (one call served), and the {@code call}
 * chain (the whole call as the caller sees it: every attempt, the mock and the cluster inside it).
 *
 * <p>A filter joins chains automatically when it carries {@code @Activate(group = "consumer")},
 * {@code "provider"} or {@code "call"} (and, with {@code value}, only when the URL has one of
 * those keys); {@code order} places it, lowest outermost. The URL key {@code filter} edits a chain
 * ({@code a,-b,-default}). Register one in {@code META-INF/rpc/dev.weft.rpc.protocol.Filter}.
 *
 * <p><b>The end of a call.</b> A call may still be running when {@code invoke} returns: its
 * {@link Result} may be pending. A filter that needs the end of the call (to release a permit,
 * record a latency, close a span) observes it on the result, never on the return of
 * {@code invoke}, and returns what {@link Result#whenComplete} returns:
 * <pre>{@code
 * public Result invoke(Invoker<?> next, Invocation invocation) {
 *     long start = ticker.read();
 *     return next.invoke(invocation).whenComplete((result, failure) -> record(start, result, failure));
 * }}</pre>
 * The action runs exactly once per call, sync or async: with {@code (result, null)} when the
 * call ended with a value or the service's exception ({@code result.hasException()}), with
 * {@code (null, failure)} when a failure of the call ended it (an {@link RpcException}: network,
 * timeout, refused, cancelled). It runs on the thread that ends the call, never a network I/O
 * thread; keep it short. To change the outcome use {@link dev.weft.rpc.common.Results#then}.
 *
 * <p><b>Failures arrive in the result.</b> Inside a chain, {@code next.invoke} never throws: a
 * refusal by a filter further in and every failure of the protocol arrive as a failed result, so
 * the filter's code has one path. A filter that refuses a call may throw an {@link RpcException}
 * (code {@link RpcException#NOT_PROCESSED} when nothing ran, so the cluster may retry elsewhere);
 * the chain turns it into a failed result for the filters outside it. Business failures travel in
 * the result as the service's exception.
 *
 * <p><b>What a filter can read.</b> {@link Invocation#getCallOptions()}: the attempt number (0 in
 * the {@code call} and {@code provider} chains, 1, 2, ... in the {@code consumer} chain), the
 * call's deadline, the URL that applies ({@link dev.weft.rpc.common.CallOptions#urlOf}); in the
 * {@code consumer} chain {@code next.getUrl().getAddress()} is the provider's address. In the
 * {@code call} chain, {@link Result#isMocked()} tells that the mock answered.
 *
 * <p>A filter is a singleton per {@code ExtensionDirector}, shared by every chain and thread, and
 * must be thread-safe; state it keeps (such as permits) is its own, and should go with the
 * invoker it belongs to ({@link ChainScopedFilter}).
 */
@SPI
public interface Filter {

    /**
     * Handles the call, usually by passing it on with {@code next.invoke(invocation)}; {@code next}
     * is the rest of the chain, whose {@code getUrl()} is the URL of the invoker inside.
     */
    Result invoke(Invoker<?> next, Invocation invocation) throws RpcException;
}
