package dev.weft.rpc.cluster;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.MethodSettings;

import java.time.Duration;
import java.util.Objects;

/**
 * The resilience keys of one consumer URL (service level), read and checked once per directory
 * state: a bad value vetoes the state ({@code what: value (expected: rule)}), so an override rule
 * carrying one is refused when it arrives and the last good settings keep serving.
 *
 * <p>Immutable and thread-safe.
 *
 * @param budget   the retry budget ({@value #RETRY_BUDGET_KEY}, {@value #RETRY_BUDGET_MIN_KEY})
 * @param outliers outlier ejection ({@code outlier-*})
 */
public record ResilienceSettings(RetryBudget.Settings budget, OutlierSettings outliers) {

    /** Consumer key: share of calls that may be retried (0 to 1, default 0.2; 1 turns the budget off). */
    public static final String RETRY_BUDGET_KEY = "retry-budget";
    /** Consumer key: retries per second always allowed (default 10). */
    public static final String RETRY_BUDGET_MIN_KEY = "retry-budget-min";
    /** Consumer key: consecutive failures that eject a provider (default 5; 0 turns it off). */
    public static final String OUTLIER_FAILURES_KEY = "outlier-failures";
    /** Consumer key: eject a provider slower than this factor times its peers' median (default 0, off). */
    public static final String OUTLIER_LATENCY_KEY = "outlier-latency";
    /** Consumer key: first ejection time, doubling on each repeat up to 10 minutes (default 30s). */
    public static final String OUTLIER_EJECTION_KEY = "outlier-ejection";
    /** Consumer key: the most providers ejected at once, in percent (default 50; one may always be). */
    public static final String OUTLIER_MAX_PERCENT_KEY = "outlier-max-percent";

    /** The defaults of every key. */
    public static final ResilienceSettings DEFAULT = new ResilienceSettings(RetryBudget.Settings.DEFAULT, OutlierSettings.DEFAULT);

    public ResilienceSettings {
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(outliers, "outliers");
    }

    /**
     * The settings of consumer URL {@code url}.
     *
     * @throws IllegalArgumentException for a malformed or out-of-range value, naming the key
     */
    public static ResilienceSettings of(URL url) {
        MethodSettings settings = new MethodSettings(url, null);
        double share = settings.getDouble(RETRY_BUDGET_KEY, RetryBudget.Settings.DEFAULT.share(), 0, 1);
        double min = settings.getDouble(RETRY_BUDGET_MIN_KEY, RetryBudget.Settings.DEFAULT.minPerSecond(), 0, 1_000_000);
        int failures = settings.getInt(OUTLIER_FAILURES_KEY, OutlierSettings.DEFAULT.consecutiveFailures(), 0, 1_000_000);
        double latency = settings.getDouble(OUTLIER_LATENCY_KEY, 0, 0, 1_000_000);
        if (latency > 0 && latency <= 1) {
            throw settings.invalid(OUTLIER_LATENCY_KEY, settings.raw(OUTLIER_LATENCY_KEY),
                    "0 (off) or a factor above 1, such as 3");
        }
        Duration ejection = settings.getDuration(OUTLIER_EJECTION_KEY, OutlierSettings.DEFAULT.ejection(), Duration.ofMillis(1),
                OutlierSettings.MAX_EJECTION);
        int maxPercent = settings.getInt(OUTLIER_MAX_PERCENT_KEY, OutlierSettings.DEFAULT.maxPercent(), 0, 100);
        return new ResilienceSettings(new RetryBudget.Settings(share, min),
                new OutlierSettings(failures, latency, ejection, maxPercent));
    }
}
