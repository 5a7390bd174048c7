package dev.weft.rpc.loadbalance;

import com.google.common.math.LongMath;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The effective weights of a list of providers for one method at one moment, with cumulative sums
 * for weighted random picks. Immutable and thread-safe.
 *
 * <p>Weight: provider URL key {@value #WEIGHT_KEY} (method level first, default
 * {@value #DEFAULT_WEIGHT}), reduced during warm-up: with {@value #TIMESTAMP_KEY} (start time, epoch
 * ms) and an uptime below {@value #WARMUP_KEY} (ms, default {@value #DEFAULT_WARMUP_MILLIS}) it is
 * {@code max(1, min(weight, uptime * weight / warmup))}; a timestamp in the future counts as uptime
 * 0. When every weight is 0 all invokers are equally likely; otherwise weight 0 is never picked.
 *
 * <p>A provider whose weight keys are malformed ({@code weight=-5}) is left out: its weight is 0
 * and it is never eligible, and {@link #problems()} says why, so the caller reports it once (when
 * it builds the table) while the other providers serve.
 *
 * <p>While a provider warms up, {@link #refreshAtMillis()} says when the table is stale: read a new
 * one with {@link #refreshed(long)} at or after that time.
 */
public final class WeightTable {

    /** Static weight of a provider (provider URL, method level first). */
    public static final String WEIGHT_KEY = "weight";
    /** Warm-up period in milliseconds (provider URL). */
    public static final String WARMUP_KEY = "warmup";
    /** Provider start time in epoch milliseconds (provider URL). */
    public static final String TIMESTAMP_KEY = "timestamp";
    public static final int DEFAULT_WEIGHT = 100;
    public static final long DEFAULT_WARMUP_MILLIS = 600_000;
    /** While a provider warms up, weights are recomputed at most this often. */
    public static final long WARMUP_REFRESH_MILLIS = 10;

    /** Per provider its weight keys; {@code null} for one left out. */
    private final ProviderWeight[] providers;
    private final List<String> problems;
    private final int[] weights;
    /** Per provider the weight it is drawn with: 0 when it may not be picked, 1 each when all weights are 0. */
    private final int[] eligible;
    /** Cumulative sums of {@link #eligible}. */
    private final long[] cumulative;
    private final long total;
    private final boolean uniform;
    private final long refreshAtMillis;

    private WeightTable(ProviderWeight[] providers, List<String> problems, long nowMillis) {
        this.providers = providers;
        this.problems = problems;
        int n = providers.length;
        this.weights = new int[n];
        long refreshAt = Long.MAX_VALUE;
        boolean allZero = true;
        for (int i = 0; i < n; i++) {
            ProviderWeight provider = providers[i];
            weights[i] = provider == null ? 0 : provider.at(nowMillis);
            allZero &= weights[i] == 0;
            if (provider != null && provider.warmsUpAt(nowMillis)) {
                refreshAt = Math.min(refreshAt, Math.min(provider.warmupEndMillis(), nowMillis + WARMUP_REFRESH_MILLIS));
            }
        }
        this.eligible = new int[n];
        this.cumulative = new long[n];
        long sum = 0;
        boolean equal = true;
        for (int i = 0; i < n; i++) {
            eligible[i] = providers[i] == null ? 0 : allZero ? 1 : weights[i];
            sum += eligible[i];
            cumulative[i] = sum;
            equal &= eligible[i] == eligible[0];
        }
        this.total = sum;
        this.uniform = equal && sum > 0;
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

    /** Whether provider {@code index} is left out: its weight keys are malformed ({@link #problems()}). */
    public boolean isLeftOut(int index) {
        return providers[index] == null;
    }

    public int size() {
        return weights.length;
    }

    public int weight(int index) {
        return weights[index];
    }

    /** The sum of the {@linkplain #effectiveWeight effective weights}: 0 when no invoker may be picked. */
    public long total() {
        return total;
    }

    /** Whether every invoker is equally likely (all weights equal, nobody left out). */
    public boolean isUniform() {
        return uniform;
    }

    /** The weight {@code index} is drawn with: 0 when it may not be picked, 1 for all when all weights are 0. */
    public int effectiveWeight(int index) {
        return eligible[index];
    }

    /**
     * A weighted random eligible index (one bounded draw when uniform, else a binary search of the
     * cumulative weights), or -1 when no invoker is eligible.
     */
    public int pick(RandomGenerator random) {
        if (uniform) {
            return random.nextInt(eligible.length);
        }
        return total == 0 ? -1 : indexOf(random.nextLong(total));
    }

    /**
     * A weighted random eligible index other than {@code excluded} (an eligible index), drawn as if
     * {@code excluded} weighed 0; {@code excluded} itself when no other invoker is eligible.
     */
    public int pickOther(RandomGenerator random, int excluded) {
        long rest = total - eligible[excluded];
        if (rest == 0) {
            return excluded;
        }
        if (uniform) {
            int other = random.nextInt(eligible.length - 1);
            return other >= excluded ? other + 1 : other;
        }
        long offset = random.nextLong(rest);
        return indexOf(offset < cumulative[excluded] - eligible[excluded] ? offset : offset + eligible[excluded]);
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

    /**
     * The weight keys of one provider for one method, read once.
     *
     * @param warmupEndMillis when warm-up ends (epoch millis), {@link Long#MIN_VALUE} without warm-up
     */
    private record ProviderWeight(int weight, long warmupEndMillis, long warmupMillis) {

        /** @throws IllegalArgumentException when a key is malformed or the weight is negative, naming the key and the URL */
        static ProviderWeight read(URL provider, String method) {
            int weight = MethodSettings.ofProvider(provider, method).getInt(WEIGHT_KEY, DEFAULT_WEIGHT, 0, Integer.MAX_VALUE);
            MethodSettings service = MethodSettings.ofProvider(provider, null);
            if (service.raw(TIMESTAMP_KEY) == null) {
                return new ProviderWeight(weight, Long.MIN_VALUE, DEFAULT_WARMUP_MILLIS);
            }
            long timestamp = service.getLong(TIMESTAMP_KEY, 0, Long.MIN_VALUE, Long.MAX_VALUE);
            long warmup = service.getLong(WARMUP_KEY, DEFAULT_WARMUP_MILLIS, Long.MIN_VALUE, Long.MAX_VALUE);
            return new ProviderWeight(weight, warmup <= 0 ? Long.MIN_VALUE : LongMath.saturatedAdd(timestamp, warmup), warmup);
        }

        /** Whether the weight is still reduced by warm-up at {@code nowMillis}. */
        boolean warmsUpAt(long nowMillis) {
            return weight > 0 && warmupEndMillis != Long.MIN_VALUE && nowMillis < warmupEndMillis;
        }

        /** The effective weight at {@code nowMillis}. */
        int at(long nowMillis) {
            if (!warmsUpAt(nowMillis)) {
                return weight;
            }
            long uptime = Math.max(0, nowMillis - (warmupEndMillis - warmupMillis));
            return (int) Math.max(1, Math.min(weight, (long) ((double) uptime * weight / warmupMillis)));
        }
    }
}
