package dev.weft.rpc.examples.extension;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.AbstractLoadBalance;
import dev.weft.rpc.loadbalance.CallStats;
import dev.weft.rpc.loadbalance.Picker;
import dev.weft.rpc.loadbalance.WeightTable;
import dev.weft.rpc.loadbalance.Weights;

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
 *   <li>{@code weight}, {@code warmup}, {@code timestamp} (provider URL): the weight rules of
 *       {@link AbstractLoadBalance}, applied among the chosen candidates; weight 0 is picked only when
 *       every candidate has weight 0 (then uniformly).</li>
 * </ul>
 *
 * <p>Thread-safe and stateless: one instance serves every thread and service, as the loader
 * requires. Each pick is two passes over the list and allocates nothing. Extending
 * {@link AbstractLoadBalance} gives the empty-list error, the single-invoker shortcut and the
 * weight and warm-up rules of the built-in balancers for free.
 */
public class LocalFirstLoadBalance extends AbstractLoadBalance {

    /** The name this balancer is registered under: select it with {@code loadbalance=localfirst}. */
    public static final String NAME = "localfirst";
    /** Consumer key: the consumer's zone. */
    public static final String CONSUMER_ZONE_KEY = "localfirst.zone";
    /** Provider key: the provider's zone. */
    public static final String PROVIDER_ZONE_KEY = "zone";

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
     * Picks among the local providers, or among all when none is local. The base class has already
     * handled an empty list (an {@code RpcException} with {@code NO_INVOKER_AVAILABLE}) and a single
     * invoker; {@link Weights} applies the {@code weight} key and warm-up, and leaves a provider
     * with a negative or non-numeric weight out (logged once, naming the provider URL).
     */
    @Override
    protected <T> Picker<T> newPicker(List<Invoker<T>> invokers, URL url, String method, CallStats stats) {
        Weights weights = Weights.read(invokers, method, stats);
        String zone = url.getMethodParameter(method, CONSUMER_ZONE_KEY, "");
        return invocation -> pick(invokers, zone, weights.current());
    }

    private <T> Invoker<T> pick(List<Invoker<T>> invokers, String zone, WeightTable table) {
        int localCount = 0;
        long localWeight = 0;
        long allWeight = 0;
        for (int i = 0; i < invokers.size(); i++) {
            allWeight += table.weight(i);
            if (isLocal(invokers.get(i), zone)) {
                localCount++;
                localWeight += table.weight(i);
            }
        }
        boolean localOnly = localCount > 0;
        int count = localOnly ? localCount : invokers.size();
        long totalWeight = localOnly ? localWeight : allWeight;
        long point = randomBelow.applyAsLong(totalWeight > 0 ? totalWeight : count);
        for (int i = 0; i < invokers.size(); i++) {
            if (!localOnly || isLocal(invokers.get(i), zone)) {
                point -= totalWeight > 0 ? table.weight(i) : 1;
                if (point < 0) {
                    return invokers.get(i);
                }
            }
        }
        throw new IllegalStateException("random source: returned a value out of [0, bound) (expected: a uniform draw)");
    }

    private static boolean isLocal(Invoker<?> invoker, String zone) {
        return !zone.isEmpty() && zone.equalsIgnoreCase(invoker.getUrl().getParameter(PROVIDER_ZONE_KEY, ""));
    }

    @Override
    public String toString() {
        return NAME;
    }
}
