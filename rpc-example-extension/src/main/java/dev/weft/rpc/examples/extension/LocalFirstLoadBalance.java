package dev.weft.rpc.examples.extension;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongUnaryOperator;

/**
 * {@code localfirst}: prefers providers in the consumer's zone, falling back to weighted random
 * among all providers when none is local.
 *
 * <p>Keys:
 * <ul>
 *   <li>{@value #CONSUMER_ZONE_KEY} (consumer URL, method level first): the consumer's zone. Absent or
 *       empty: no preference, plain weighted random over every provider.</li>
 *   <li>{@value #PROVIDER_ZONE_KEY} (provider URL): the provider's zone, compared ignoring case
 *       ({@code EU-west} matches {@code eu-WEST}). A provider without it is never local.</li>
 *   <li>{@value #WEIGHT_KEY} (provider URL, method level first, default {@value #DEFAULT_WEIGHT}): the
 *       static weight used among the chosen candidates; weight 0 is picked only when every candidate
 *       has weight 0 (then uniformly).</li>
 * </ul>
 *
 * <p>Thread-safe and stateless: one instance serves every thread and service, as the loader
 * requires. Each pick is two passes over the list and allocates nothing.
 */
public class LocalFirstLoadBalance implements LoadBalance {

    /** The name this balancer is registered under: select it with {@code loadbalance=localfirst}. */
    public static final String NAME = "localfirst";
    /** Consumer key: the consumer's zone. */
    public static final String CONSUMER_ZONE_KEY = "localfirst.zone";
    /** Provider key: the provider's zone. */
    public static final String PROVIDER_ZONE_KEY = "zone";
    /** Provider key: the static weight. */
    public static final String WEIGHT_KEY = "weight";
    /** The weight of a provider without {@value #WEIGHT_KEY}. */
    public static final int DEFAULT_WEIGHT = 100;

    /** Returns a uniformly random long in {@code [0, bound)}. */
    private final LongUnaryOperator randomBelow;

    /** The instance the extension loader creates: randomness from {@link ThreadLocalRandom}. */
    public LocalFirstLoadBalance() {
        this(bound -> ThreadLocalRandom.current().nextLong(bound));
    }

    /**
     * A balancer drawing from {@code randomBelow} (given {@code bound > 0}, returns a value in
     * {@code [0, bound)}); it must be thread-safe when the balancer is shared. For tests.
     */
    LocalFirstLoadBalance(LongUnaryOperator randomBelow) {
        this.randomBelow = Objects.requireNonNull(randomBelow, "randomBelow");
    }

    /**
     * {@inheritDoc}
     *
     * @throws RpcException {@code NO_INVOKER_AVAILABLE} when {@code invokers} is empty
     * @throws IllegalStateException when a provider's weight is negative, naming its URL
     * @throws IllegalArgumentException when a provider's weight is not an integer (from {@link URL})
     */
    @Override
    public <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) throws RpcException {
        Objects.requireNonNull(invokers, "invokers");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(invocation, "invocation");
        if (invokers.isEmpty()) {
            throw new RpcException(RpcException.NO_INVOKER_AVAILABLE, "No provider available for "
                    + url.getServiceInterface() + "." + invocation.getMethodName() + " (loadbalance=" + NAME
                    + ", consumer " + url + ")");
        }
        if (invokers.size() == 1) {
            return invokers.get(0);
        }
        String method = invocation.getMethodName();
        String zone = url.getMethodParameter(method, CONSUMER_ZONE_KEY, "");
        int localCount = 0;
        long localWeight = 0;
        long allWeight = 0;
        for (Invoker<T> invoker : invokers) {
            int weight = weightOf(invoker, method);
            allWeight += weight;
            if (isLocal(invoker, zone)) {
                localCount++;
                localWeight += weight;
            }
        }
        boolean localOnly = localCount > 0;
        int count = localOnly ? localCount : invokers.size();
        long totalWeight = localOnly ? localWeight : allWeight;
        if (totalWeight > 0) {
            long point = randomBelow.applyAsLong(totalWeight);
            for (Invoker<T> invoker : invokers) {
                if (!localOnly || isLocal(invoker, zone)) {
                    point -= weightOf(invoker, method);
                    if (point < 0) {
                        return invoker;
                    }
                }
            }
        } else {
            long index = randomBelow.applyAsLong(count);
            for (Invoker<T> invoker : invokers) {
                if ((!localOnly || isLocal(invoker, zone)) && index-- == 0) {
                    return invoker;
                }
            }
        }
        throw new IllegalStateException("random source: returned a value out of [0, bound) (expected: a uniform draw)");
    }

    private static boolean isLocal(Invoker<?> invoker, String zone) {
        return !zone.isEmpty() && zone.equalsIgnoreCase(invoker.getUrl().getParameter(PROVIDER_ZONE_KEY, ""));
    }

    private static int weightOf(Invoker<?> invoker, String method) {
        URL providerUrl = invoker.getUrl();
        int weight = providerUrl.getMethodParameter(method, WEIGHT_KEY, DEFAULT_WEIGHT);
        if (weight < 0) {
            throw new IllegalStateException(WEIGHT_KEY + ": " + weight + " (expected: an integer >= 0) in provider "
                    + providerUrl);
        }
        return weight;
    }

    @Override
    public String toString() {
        return NAME;
    }
}
