package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.loadbalance.MethodSettings;
import dev.weft.rpc.loadbalance.Picker;

import java.util.List;

/**
 * What the calls of one method use under one directory state, resolved once (when the first call
 * of the method meets the state). A strategy's {@link AbstractClusterInvoker#doInvoke} receives it
 * with every call.
 *
 * <p>Immutable and thread-safe.
 *
 * @param settings       the method's settings under the state's consumer URL
 * @param loadBalance    the balancer ({@code loadbalance}, method level first)
 * @param retries        extra attempts ({@code retries}, method level first), never negative
 * @param sticky         whether {@code sticky} is on
 * @param availableCheck whether unavailable providers are skipped ({@code cluster.availablecheck})
 * @param candidates     the providers the picker chooses among (the state's candidates)
 * @param picker         the balancer's picker over {@code candidates}
 * @param strategy       what the strategy resolved for this method ({@link AbstractClusterInvoker#resolve})
 * @param callTimeoutMillis the budget of a whole call ({@code call-timeout}, method level first); 0: none
 * @param <T>            the service interface
 */
public record MethodPlan<T>(MethodSettings settings, LoadBalance loadBalance, int retries, boolean sticky, boolean availableCheck,
                            List<Invoker<T>> candidates, Picker<T> picker, Object strategy, long callTimeoutMillis) {

    /** The state's consumer URL. */
    public URL url() {
        return settings.url();
    }

    /** The method's name; null for the service level. */
    public String method() {
        return settings.method();
    }

    /** {@link #strategy()} cast to the strategy's own type; null when it resolves nothing. */
    @SuppressWarnings("unchecked")
    public <S> S strategySettings() {
        return (S) strategy;
    }

    @Override
    public String toString() {
        return "MethodPlan[" + settings + ", " + loadBalance.getClass().getSimpleName() + ", retries=" + retries + "]";
    }
}
