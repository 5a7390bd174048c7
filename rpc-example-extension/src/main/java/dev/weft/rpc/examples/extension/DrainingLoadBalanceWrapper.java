package dev.weft.rpc.examples.extension;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.spi.Wrapper;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A wrapper around the {@code localfirst} balancer that keeps traffic off providers being drained:
 * those whose URL says {@code draining=true} are left out of the choice while any other provider
 * is listed; when every provider is draining, all of them are offered (better a draining provider
 * than no answer).
 *
 * <p>The loader makes this class a wrapper because its public constructor takes a
 * {@link LoadBalance}; {@link Wrapper#matches()} limits it to {@code localfirst} (drop
 * {@code matches} to wrap every balancer, the built-in ones included). What the wrapped balancer
 * receives is a new unmodifiable list only when a provider is left out; otherwise the caller's
 * list itself.
 *
 * <p>Thread-safe when the wrapped balancer is: it keeps no state.
 */
@Wrapper(matches = LocalFirstLoadBalance.NAME)
public class DrainingLoadBalanceWrapper implements LoadBalance {

    /** Provider URL key: {@code true} while the provider is being taken out of service. */
    public static final String DRAINING_KEY = "draining";

    private final LoadBalance balancer;

    /** Wraps {@code balancer}; called by the extension loader. */
    public DrainingLoadBalanceWrapper(LoadBalance balancer) {
        this.balancer = Objects.requireNonNull(balancer, "balancer");
    }

    @Override
    public <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) throws RpcException {
        Objects.requireNonNull(invokers, "invokers");
        int draining = 0;
        for (Invoker<T> invoker : invokers) {
            if (isDraining(invoker)) {
                draining++;
            }
        }
        if (draining == 0 || draining == invokers.size()) {
            return balancer.select(invokers, url, invocation);
        }
        List<Invoker<T>> serving = new ArrayList<>(invokers.size() - draining);
        for (Invoker<T> invoker : invokers) {
            if (!isDraining(invoker)) {
                serving.add(invoker);
            }
        }
        return balancer.select(Collections.unmodifiableList(serving), url, invocation);
    }

    private static boolean isDraining(Invoker<?> invoker) {
        return invoker.getUrl().getParameter(DRAINING_KEY, false);
    }

    /** The wrapped balancer. */
    public LoadBalance unwrap() {
        return balancer;
    }

    @Override
    public String toString() {
        return "draining(" + balancer + ")";
    }
}
