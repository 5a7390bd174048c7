package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.internal.ProviderWeight;
import dev.weft.rpc.loadbalance.internal.TimeSource;

import java.util.List;
import java.util.Objects;

/**
 * Base of the balancers: checks the arguments, answers the trivial cases without the subclass
 * (an empty list is an error, a single invoker is returned as is) and offers the weight rules.
 *
 * <p>Weight: provider URL key {@code weight} (method level {@code <method>.weight} first, default
 * 100), reduced during warm-up: when the provider URL has {@code timestamp} (start time, epoch
 * millis) and its uptime is below {@code warmup} (millis, default 600000), the weight is
 * {@code max(1, min(weight, uptime * weight / warmup))}; a future timestamp counts as just
 * started. Weight 0 is never picked unless every invoker has weight 0 (then all are equal).
 * A negative or non-numeric {@code weight} (or a malformed {@code warmup}/{@code timestamp}) is a
 * configuration error: {@code select} throws {@link IllegalArgumentException} naming the key, the
 * value and the provider URL. It is not an {@link RpcException} on purpose: retrying another
 * provider cannot fix it, so a cluster does not retry it.
 *
 * <p>Subclasses must be thread-safe: one instance serves every thread and every service.
 */
public abstract class AbstractLoadBalance implements LoadBalance {

    private final TimeSource time;

    protected AbstractLoadBalance() {
        this(TimeSource.SYSTEM);
    }

    AbstractLoadBalance(TimeSource time) {
        this.time = Objects.requireNonNull(time, "time");
    }

    /**
     * Returns the only invoker of a singleton list, or delegates to {@link #doSelect}.
     *
     * @throws RpcException with {@link RpcException#NO_INVOKER_AVAILABLE} when {@code invokers} is empty
     * @throws IllegalArgumentException when a provider's weight configuration is malformed
     */
    @Override
    public final <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) throws RpcException {
        Objects.requireNonNull(invokers, "invokers");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(invocation, "invocation");
        int size = invokers.size();
        if (size == 1) {
            return invokers.get(0);
        }
        if (size == 0) {
            throw emptyList(url, invocation);
        }
        return doSelect(invokers, url, invocation);
    }

    /** Kept out of {@link #select} so that it stays small enough for the JIT to inline. */
    private RpcException emptyList(URL url, Invocation invocation) {
        return new RpcException(RpcException.NO_INVOKER_AVAILABLE, "No provider available to call "
                + url.getServiceInterface() + "." + invocation.getMethodName() + " (load balance: "
                + getClass().getSimpleName() + ", the invoker list is empty; consumer: " + url + ")");
    }

    /** Selects from a list of at least two invokers. */
    protected abstract <T> Invoker<T> doSelect(List<Invoker<T>> invokers, URL url, Invocation invocation);

    /**
     * The effective weight of {@code invoker} for this invocation now (warm-up applied), read from
     * its URL. For custom balancers; the built-in ones cache weights per invoker list instead.
     *
     * @throws IllegalArgumentException when the weight configuration is malformed
     */
    protected int getWeight(Invoker<?> invoker, Invocation invocation) {
        URL provider = invoker.getUrl();
        int weight = ProviderWeight.staticWeight(provider, invocation.getMethodName());
        return ProviderWeight.warmedWeight(provider, weight, ProviderWeight.warmupEndMillis(provider), time.currentTimeMillis());
    }
}
