package dev.weft.rpc.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * How a consumer ejects outlier providers: after {@code consecutiveFailures} failures in a row, or
 * when a provider's recent latency is more than {@code latencyFactor} times the median of its
 * peers'; for {@code ejection}, doubling on each repeat up to {@link #MAX_EJECTION}; never more
 * than {@code maxPercent} of the providers at once (though one provider may always be ejected when
 * there are two or more). Immutable.
 *
 * @param consecutiveFailures {@code outlier-failures}: 0 turns ejection by failures off
 * @param latencyFactor       {@code outlier-latency}: 0 turns ejection by latency off, else above 1
 * @param ejection            {@code outlier-ejection}: the first ejection's time
 * @param maxPercent          {@code outlier-max-percent}: 0 to 100
 */
public record OutlierSettings(int consecutiveFailures, double latencyFactor, Duration ejection, int maxPercent) {

    /** The defaults: 5 failures, latency off, 30 s, 50 %. */
    public static final OutlierSettings DEFAULT = new OutlierSettings(5, 0, Duration.ofSeconds(30), 50);
    /** The longest ejection, however often a provider was ejected. */
    public static final Duration MAX_EJECTION = Duration.ofMinutes(10);
    /** Successful calls a provider needs in the window before its latency is compared with its peers'. */
    public static final int MIN_LATENCY_SAMPLES = 20;

    public OutlierSettings {
        Objects.requireNonNull(ejection, "ejection");
        if (consecutiveFailures < 0 || !(latencyFactor == 0 || latencyFactor > 1) || ejection.isNegative() || ejection.isZero()
                || maxPercent < 0 || maxPercent > 100) {
            throw new IllegalArgumentException("outlier settings: " + consecutiveFailures + " failures, latency factor " + latencyFactor
                    + ", ejection " + ejection + ", " + maxPercent + "% (expected: failures >= 0, factor 0 or > 1, positive time,"
                    + " 0-100%)");
        }
    }

    /** These settings with {@code outlier-failures} set to {@code failures}. */
    public OutlierSettings withFailures(int failures) {
        return new OutlierSettings(failures, latencyFactor, ejection, maxPercent);
    }

    /** Whether any ejection is on. */
    public boolean enabled() {
        return consecutiveFailures > 0 || latencyFactor > 0;
    }

    /** The time of the ejection that follows {@code previous} ejections: doubled each time, at most {@link #MAX_EJECTION}. */
    public Duration ejectionAfter(int previous) {
        Duration time = ejection;
        for (int i = 0; i < previous && time.compareTo(MAX_EJECTION) < 0; i++) {
            time = time.multipliedBy(2);
        }
        return time.compareTo(MAX_EJECTION) > 0 ? MAX_EJECTION : time;
    }

    /** The most providers of {@code providers} that may be ejected at once. */
    public int maxEjected(int providers) {
        if (providers < 2) {
            return 0;
        }
        return Math.min(providers - 1, Math.max(1, providers * maxPercent / 100));
    }
}
