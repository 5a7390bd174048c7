package dev.weft.rpc.examples;

import com.google.common.base.Preconditions;
import dev.weft.rpc.common.Deadline;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * {@code brownout}: the provider filter that browns a live provider out on the operator's command
 * ({@link ProviderHost#brownout}). Active on the live providers' export URLs ({@code brownout=on},
 * see {@link LiveCluster#providerUrl}); it reads the {@link State} of its provider's
 * {@link ExtensionDirector} (each live provider has its own). While the state is
 * {@link Phase#SLOW}, every call waits the state's extra time before it runs, so the provider
 * answers {@link #SLOWDOWN} times slower than its usual mean; while {@link Phase#FAILING}, no call
 * is answered in time: each holds its thread until the call's deadline has passed (at most
 * {@link #MAX_HANG_MILLIS}), so the consumer sees a timeout, a failure it retries elsewhere within
 * its retry budget and counts towards ejecting the provider ({@code outlier-failures}). A
 * {@code NOT_PROCESSED} ("busy") answer would not do: consumers retry it but, rightly, never eject
 * a provider for shedding load.
 *
 * <p>Thread-safe: the state is one volatile value.
 */
@Activate(group = FilterChain.PROVIDER, value = Brownout.KEY, order = 1_000)
public final class Brownout implements Filter, ExtensionDirectorAware {

    /** Provider URL key: turns the filter on. */
    static final String KEY = "brownout";
    /** How many times slower a {@link Phase#SLOW} provider answers than its mean latency. */
    static final int SLOWDOWN = 20;
    /** The mean latency a provider without one is taken to have when slowed down. */
    static final long MIN_BASE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How long a failing provider holds a call with no deadline (or a later one). */
    static final long MAX_HANG_MILLIS = 3_000;
    /** How long past the call's deadline a failing provider holds it: the consumer has given up by then. */
    private static final long HANG_MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** The phases of a brownout. */
    enum Phase {
        /** Serving as usual. */
        NONE,
        /** Answering {@link #SLOWDOWN} times slower. */
        SLOW,
        /** Answering no call before its deadline. */
        FAILING
    }

    private volatile State state = new State();

    /** The instance the extension loader creates. */
    public Brownout() {
    }

    /** The brownout state of the provider whose calls {@code director} serves. */
    static State stateOf(ExtensionDirector director) {
        return director.getService(State.class, d -> new State());
    }

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        state = stateOf(director);
    }

    @Override
    public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
        State.Setting current = state.setting();
        if (current.phase() == Phase.FAILING) {
            Deadline deadline = invocation.getCallOptions().deadline();
            long maxHang = TimeUnit.MILLISECONDS.toNanos(MAX_HANG_MILLIS);
            hold(deadline == null ? maxHang : Math.min(maxHang, deadline.timeRemaining(TimeUnit.NANOSECONDS) + HANG_MARGIN_NANOS));
            throw new RpcException(RpcException.NOT_PROCESSED, "brownout: not answered before the deadline");
        }
        if (current.phase() == Phase.SLOW) {
            hold(current.extraNanos());
        }
        return next.invoke(invocation);
    }

    private static void hold(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RpcException(RpcException.NOT_PROCESSED, "brownout: interrupted", e);
        }
    }

    @Override
    public String toString() {
        return KEY;
    }

    /**
     * One provider's brownout: its phase and, while slow, the extra wait per call. Thread-safe:
     * one volatile immutable setting.
     */
    static final class State {

        /** A phase and, while slow, the extra wait per call. */
        record Setting(Phase phase, long extraNanos) {
        }

        private volatile Setting setting = new Setting(Phase.NONE, 0);

        /**
         * Enters {@code phase}; for {@link Phase#SLOW} each call then waits {@code SLOWDOWN - 1}
         * times {@code meanLatencyNanos} (at least {@link #MIN_BASE_NANOS}) on top of its own time.
         */
        void enter(Phase phase, long meanLatencyNanos) {
            Objects.requireNonNull(phase, "phase");
            Preconditions.checkArgument(meanLatencyNanos >= 0, "meanLatencyNanos: %s (expected: >= 0)", meanLatencyNanos);
            long extra = phase == Phase.SLOW ? (SLOWDOWN - 1) * Math.max(MIN_BASE_NANOS, meanLatencyNanos) : 0;
            setting = new Setting(phase, extra);
        }

        /** The phase and wait now, read together. */
        Setting setting() {
            return setting;
        }
    }
}
