package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.loadbalance.internal.ProviderWeight;
import dev.weft.rpc.loadbalance.internal.UniformIndex;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The effective weights of a list of providers for one method at one moment, with cumulative sums
 * for weighted random picks. Immutable and thread-safe.
 *
 * <p>Weight: provider URL key {@code weight} (method level first, default 100), reduced during
 * warm-up: with {@code timestamp} (start time, epoch ms) and an uptime below {@code warmup} (ms,
 * default 600000) it is {@code max(1, min(weight, uptime * weight / warmup))}. When every weight is
 * 0 all invokers are equally likely; otherwise weight 0 is never picked.
 *
 * <p>A provider whose weight keys are malformed ({@code weight=-5}) is left out: its weight is 0
 * and it is never eligible, and {@link #problems()} says why, so the caller reports it once (when
 * it builds the table) while the other providers serve.
 *
 * <p>While a provider warms up, {@link #refreshAtMillis()} says when the table is stale: read a new
 * one with {@link #refreshed(long)} at or after that time.
 */
public final class WeightTable {

    /** While a provider warms up, weights are recomputed at most this often. */
    public static final long WARMUP_REFRESH_MILLIS = 10;

    /** Per provider its weight keys; {@code null} for one left out. */
    private final ProviderWeight[] providers;
    private final List<String> problems;
    private final int[] weights;
    private final long[] cumulative;
    private final long total;
    private final boolean uniform;
    private final long refreshAtMillis;

    private WeightTable(ProviderWeight[] providers, List<String> problems, long nowMillis) {
        this.providers = providers;
        this.problems = problems;
        int n = providers.length;
        this.weights = new int[n];
        this.cumulative = new long[n];
        long refreshAt = Long.MAX_VALUE;
        long sum = 0;
        boolean equal = problems.isEmpty();
        for (int i = 0; i < n; i++) {
            ProviderWeight provider = providers[i];
            weights[i] = provider == null ? 0 : provider.at(nowMillis);
            if (provider != null && provider.warmsUpAt(nowMillis)) {
                refreshAt = Math.min(refreshAt, Math.min(provider.warmupEndMillis(), nowMillis + WARMUP_REFRESH_MILLIS));
            }
            sum += weights[i];
            cumulative[i] = sum;
            equal &= weights[i] == weights[0];
        }
        this.total = sum;
        this.uniform = equal;
        this.refreshAtMillis = refreshAt;
    }

    /**
     * Reads the weights of {@code invokers} for {@code method} (null: the service level) at
     * {@code nowMillis} (wall clock, as {@link CallStats#currentTimeMillis()}).
     */
    public static WeightTable read(List<? extends Invoker<?>> invokers, String method, long nowMillis) {
        ProviderWeight[] providers = new ProviderWeight[invokers.size()];
        List<String> problems = new ArrayList<>(0);
        for (int i = 0; i < providers.length; i++) {
            try {
                providers[i] = ProviderWeight.read(invokers.get(i).getUrl(), method);
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        return new WeightTable(providers, List.copyOf(problems), nowMillis);
    }

    /** This table when it is still current at {@code nowMillis}, else the weights recomputed for that time. */
    public WeightTable refreshed(long nowMillis) {
        if (nowMillis < refreshAtMillis) {
            return this;
        }
        return new WeightTable(providers, problems, nowMillis);
    }

    /** When warm-up makes this table stale (wall ms); {@link Long#MAX_VALUE} when nothing warms up. */
    public long refreshAtMillis() {
        return refreshAtMillis;
    }

    /** Why providers were left out: one {@code what: value (expected: rule)} message each; empty when none was. */
    public List<String> problems() {
        return problems;
    }

    public int size() {
        return weights.length;
    }

    public int weight(int index) {
        return weights[index];
    }

    public long total() {
        return total;
    }

    /** Whether every invoker is equally likely (all weights equal, nobody left out). */
    public boolean isUniform() {
        return uniform;
    }

    /** Whether {@code index} may be picked: not left out, and its weight is positive or all weights are 0. */
    public boolean isEligible(int index) {
        return providers[index] != null && (weights[index] > 0 || total == 0);
    }

    /** Whether some invoker may be picked. */
    public boolean hasEligible() {
        for (int i = 0; i < weights.length; i++) {
            if (isEligible(i)) {
                return true;
            }
        }
        return false;
    }

    /** The weight used among eligible candidates: 1 for all when all weights are 0. */
    public int effectiveWeight(int index) {
        return total == 0 ? 1 : weights[index];
    }

    /**
     * A weighted random eligible index (O(1) when uniform, else a binary search), or -1 when no
     * invoker is eligible.
     */
    public int pick(RandomGenerator random) {
        if (uniform) {
            return UniformIndex.draw(random, weights.length);
        }
        if (total > 0) {
            return indexOf(random.nextLong(total));
        }
        int eligible = 0;
        for (int i = 0; i < weights.length; i++) {
            eligible += isEligible(i) ? 1 : 0;
        }
        if (eligible == 0) {
            return -1;
        }
        int nth = random.nextInt(eligible);
        for (int i = 0; ; i++) {
            if (isEligible(i) && nth-- == 0) {
                return i;
            }
        }
    }

    /** The index whose cumulative interval contains {@code offset} ({@code 0 <= offset < total()}). */
    public int indexOf(long offset) {
        int low = 0;
        int high = cumulative.length - 1;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (cumulative[mid] > offset) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    @Override
    public String toString() {
        return "WeightTable" + Arrays.toString(weights) + (problems.isEmpty() ? "" : " left out: " + problems);
    }
}
