package dev.weft.rpc.examples;

import com.google.common.base.Preconditions;

import java.util.Locale;
import java.util.Objects;

/**
 * One governance action or fault of the live run, at an offset from the start of the load.
 * Immutable.
 *
 * @param atMillis when it happens, milliseconds after the load started (>= 0)
 * @param kind     what happens
 * @param provider the provider it targets, or {@code null} for one that targets the whole cluster
 */
record LiveEvent(long atMillis, Kind kind, String provider) {

    /** The actions and faults the playground knows. */
    enum Kind {
        /** An override rule tagging one provider {@value LiveEvent#CANARY_TAG}: the tagged calls go to it alone. */
        CANARY_ON("override: tag=" + LiveEvent.CANARY_TAG + " (canary: the tagged calls go here only)"),
        /** That tag rule deleted: the provider serves every untagged call again. */
        CANARY_OFF("tag rule deleted (back in the pool)"),
        /** An override rule forcing a mock on {@code greet} for every consumer. */
        MOCK_ON("override: greet.mock=force:return degraded"),
        /** That override rule deleted. */
        MOCK_OFF("override deleted: greet answered again"),
        /** An override rule raising one provider's weight. */
        WEIGHT("override: weight=" + LiveEvent.RAISED_WEIGHT),
        /** An override rule taking one provider out. */
        DISABLE("override: disabled=true"),
        /** A provider browning out: answering {@value Brownout#SLOWDOWN}x slower than usual. */
        BROWNOUT_SLOW("brownout: " + Brownout.SLOWDOWN + "x slower"),
        /** The browned-out provider failing: answering no call before its deadline (consumers see timeouts). */
        BROWNOUT_FAIL("brownout: failing (no answer in time)"),
        /** A provider killed: its process destroyed, no goodbye. */
        KILL("killed (no graceful shutdown)"),
        /** A provider shut down gracefully: unregistered, drained, closed. */
        SHUTDOWN("shut down gracefully"),
        /** The ZooKeeper server restarted (embedded ZooKeeper only). */
        ZOOKEEPER_RESTART("ZooKeeper restarted");

        private final String description;

        Kind(String description) {
            this.description = description;
        }

        String description() {
            return description;
        }

        /** Whether this kind needs a provider. */
        boolean targetsProvider() {
            return this != MOCK_ON && this != MOCK_OFF && this != ZOOKEEPER_RESTART;
        }
    }

    /** The tag a {@link Kind#CANARY_ON} override gives its provider, and the tag a share of the live calls carry. */
    static final String CANARY_TAG = "canary";

    /** The weight a {@link Kind#WEIGHT} override gives its provider. */
    static final int RAISED_WEIGHT = 600;

    LiveEvent {
        Preconditions.checkArgument(atMillis >= 0, "atMillis: %s (expected: >= 0)", atMillis);
        Objects.requireNonNull(kind, "kind");
        Preconditions.checkArgument(kind.targetsProvider() == (provider != null),
                "provider: %s (expected: %s for %s)", provider, kind.targetsProvider() ? "a name" : "none", kind);
    }

    /** E.g. {@code provider b: override: weight=600} or {@code ZooKeeper restarted}. */
    String label() {
        return provider == null ? kind.description() : "provider " + provider + ": " + kind.description();
    }

    /** E.g. {@code 4.5 s}. */
    String at() {
        return String.format(Locale.ROOT, "%.1f s", atMillis / 1000.0);
    }
}
