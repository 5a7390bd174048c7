package dev.weft.rpc.cluster;

import com.google.common.base.Ticker;
import com.google.common.collect.MapMaker;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.InvokerView;
import dev.weft.rpc.common.ThrottledLog;
import dev.weft.rpc.loadbalance.CallStats;
import dev.weft.rpc.loadbalance.InvokerStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Finds the outlier providers of one service on the consumer and ejects them from its directory
 * for a while ({@link OutlierSettings}):
 *
 * <ul>
 *   <li><b>By failures:</b> {@code outlier-failures} failures in a row. A failure is what a retry
 *       would follow: the transport, a timeout, an unexpected exception. A business exception is an
 *       answer (it resets the count), and a "busy" answer ({@code NOT_PROCESSED}) is neither: a
 *       provider shedding load is healthy, and ejecting it would move its load onto its peers, which
 *       then shed too.</li>
 *   <li><b>By latency:</b> at most once a second, each provider with at least
 *       {@value OutlierSettings#MIN_LATENCY_SAMPLES} successful calls in its recent window
 *       ({@link InvokerStats#expectedLatencyNanos}, 10 to 20 s) whose expected latency is more than
 *       {@code outlier-latency} times the median of its peers' (those with as many samples) is
 *       ejected, slowest first.</li>
 *   <li><b>Cap:</b> never more than {@link OutlierSettings#maxEjected} providers at once; a
 *       provider found an outlier beyond the cap stays.</li>
 *   <li><b>Return:</b> when its time is up the provider comes back on probation for one
 *       {@code outlier-ejection} time. Its first call is a probe: until the probe has an outcome, no
 *       other call is sent to it ({@link #admit}). On probation one failure, or being found slow again (on calls made since it
 *       came back), ejects it again for twice as long as last time (at most 10 minutes). A provider that
 *       answers after its probation is over starts again from the first ejection time.</li>
 * </ul>
 *
 * <p><b>Calls already routed.</b> A call whose picker chose a provider just before it was ejected
 * is not sent to it ({@link #admit} refuses it, and the strategy tries elsewhere as after a "busy"
 * answer); calls already sent when the ejection is decided still reach it.
 *
 * <p>The ejected providers are handed to the directory ({@link AbstractDirectory#setEjected}),
 * which leaves them out of the states it publishes: the pickers are rebuilt without them, and
 * {@link DirectoryState#ejected()} shows them. Nothing runs in the background: outcomes are
 * reported by the calls, and returns are found by the calls ({@link #returnDue}).
 *
 * <p>Time comes from the injected ticker. Thread-safe: failure counts take no lock; decisions
 * (eject, return) are serialised by this object's lock.
 */
final class OutlierDetector {

    private static final Logger LOG = LoggerFactory.getLogger(OutlierDetector.class);
    private static final long LATENCY_CHECK_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** No time recorded ({@link Health}'s fields). */
    private static final long NEVER = Long.MIN_VALUE;

    private final Ticker ticker;
    private final Consumer<List<Invoker<?>>> publish;
    private final ServiceResilience counters;
    private final String service;
    /** Per provider (unwrapped, held weakly): its failures in a row and its ejection history. */
    private final ConcurrentMap<Invoker<?>, Health> health = new MapMaker().weakKeys().makeMap();
    /** The providers ejected now, with the ticker time their ejection ends; guarded by this. */
    private final Map<Invoker<?>, Long> ejected = new HashMap<>();
    /** Outliers left in because of the cap: logged at most every 10 s, with counts. */
    private final ThrottledLog capped;
    /** Whether some provider is ejected, and the earliest end of an ejection. */
    private volatile boolean anyEjected;
    /** The providers ejected now (unwrapped), for {@link #admit}. */
    private volatile Set<Invoker<?>> ejectedNow = Set.of();
    /** Providers back from an ejection whose probe has no outcome yet. */
    private final AtomicInteger awaitingProbe = new AtomicInteger();
    private volatile long nextReturnNanos;
    private volatile long nextLatencyCheckNanos;
    /** Ejections and returns decided so far; written under this object's lock. */
    private volatile long decisions;

    /** What the detector knows of one provider. */
    private static final class Health {
        final AtomicInteger failuresInRow = new AtomicInteger();
        /** Guarded by the detector: ejections since the provider last passed its probation. */
        int ejections;
        /** When the provider last came back ({@link #NEVER}: never ejected), and when its probation ends. */
        volatile long returnedNanos = NEVER;
        volatile long probationEndNanos = NEVER;
        /** The {@link #mark()} of its last ejection or return: failures of attempts sent before then do not count. */
        volatile long countsFrom;
        /** Back from an ejection, no probe outcome yet; and whether the probe is in flight. */
        volatile boolean awaitingProbe;
        final AtomicBoolean probing = new AtomicBoolean();

        boolean onProbation(long now) {
            return probationEndNanos != NEVER && now - probationEndNanos < 0;
        }

        boolean passedProbation(long now) {
            return probationEndNanos != NEVER && now - probationEndNanos >= 0;
        }
    }

    /**
     * @param ticker   the clock
     * @param publish  receives every new set of ejected providers (the directory's {@code setEjected})
     * @param counters where ejections and returns are counted
     */
    OutlierDetector(Ticker ticker, Consumer<List<Invoker<?>>> publish, ServiceResilience counters) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.publish = Objects.requireNonNull(publish, "publish");
        this.counters = Objects.requireNonNull(counters, "counters");
        this.service = counters.service();
        this.nextLatencyCheckNanos = ticker.read();
        this.capped = new ThrottledLog(LOG, ticker, Duration.ofSeconds(10));
    }

    /**
     * Whether a call may be sent to {@code provider} now: not while it is ejected, nor, back from an
     * ejection, while its probe is in flight (the call admitted as the probe must report its outcome:
     * {@link #onAnswer}, {@link #onFailure} or {@link #onBusy}). One volatile read when no provider is
     * ejected or awaiting its probe.
     */
    boolean admit(Invoker<?> provider, OutlierSettings settings) {
        if (!anyEjected && awaitingProbe.get() == 0 || !settings.enabled()) {
            return true;
        }
        Invoker<?> key = InvokerView.unwrap(provider);
        if (ejectedNow.contains(key)) {
            return false;
        }
        Health known = health.get(key);
        return known == null || !known.awaitingProbe || known.probing.compareAndSet(false, true);
    }

    /** {@code provider} answered "busy": neither an answer nor a failure; a probe may be sent again. */
    void onBusy(Invoker<?> provider) {
        Health known = health.get(InvokerView.unwrap(provider));
        if (known != null) {
            known.probing.set(false);
        }
    }

    /** {@code provider} answered (a result or a business exception): its failures in a row start again. */
    void onAnswer(Invoker<?> provider, OutlierSettings settings) {
        Health known = health.get(InvokerView.unwrap(provider));
        if (known == null) {
            return;
        }
        known.failuresInRow.set(0);
        probed(known);
        if (known.probationEndNanos != NEVER && known.passedProbation(ticker.read())) {
            synchronized (this) {
                known.ejections = 0; // probation passed: the next ejection is the first again
                known.probationEndNanos = NEVER;
            }
        }
    }

    /**
     * What an attempt records as it is sent, for {@link #onFailure}: the count of ejections and
     * returns decided so far. A volatile read; no clock.
     */
    long mark() {
        return decisions;
    }

    /**
     * {@code provider} failed as a retry would follow, on an attempt sent when {@link #mark()} read
     * {@code sentMark}; may eject it. The failure of an attempt sent before the provider's last
     * ejection or return is ignored: it was in flight when that was decided, so it says nothing new
     * (with N callers, up to N attempts are in flight when the threshold is reached; their failures
     * must neither count towards the next ejection nor end a probation).
     */
    void onFailure(Invoker<?> provider, long sentMark, OutlierSettings settings, DirectoryState<?> state) {
        Invoker<?> key = InvokerView.unwrap(provider);
        Health seen = health.get(key);
        if (seen != null && sentMark < seen.countsFrom) {
            return;
        }
        if (settings.consecutiveFailures() <= 0) {
            Health known = health.get(key);
            if (known != null) {
                probed(known); // ejected by latency: its probe failed, latency decides again
            }
            return;
        }
        Health known = health.computeIfAbsent(key, k -> new Health());
        int inRow = known.failuresInRow.incrementAndGet();
        boolean onProbation = known.onProbation(ticker.read());
        if (inRow >= settings.consecutiveFailures() || onProbation) {
            synchronized (this) {
                if (!ejected.containsKey(key) && eject(key, known, settings, state, inRow + " failures in a row, the last on "
                        + AbstractClusterInvoker.describe(provider) + (onProbation ? " on probation" : ""))) {
                    known.failuresInRow.set(0);
                }
            }
        }
        probed(known); // after the ejection is published: no call slips in between
    }

    /**
     * At most once per second: ejects the providers of {@code state} slower than the latency factor
     * times their peers' median. Latency must be timed ({@link InvokerStats#timeLatency()}) for the
     * providers of {@code state}.
     */
    void checkLatency(OutlierSettings settings, DirectoryState<?> state, CallStats stats) {
        if (settings.latencyFactor() <= 0) {
            return;
        }
        long now = ticker.read();
        if (now - nextLatencyCheckNanos < 0) {
            return;
        }
        synchronized (this) {
            if (now - nextLatencyCheckNanos < 0) {
                return;
            }
            nextLatencyCheckNanos = now + LATENCY_CHECK_INTERVAL_NANOS;
            record Sample(Invoker<?> provider, long nanos) {
            }
            List<Sample> samples = new ArrayList<>();
            for (Invoker<?> invoker : state.invokers()) {
                Invoker<?> key = InvokerView.unwrap(invoker);
                InvokerStats counts = stats.get(key);
                Health known = health.get(key);
                boolean sinceReturn = known == null || known.returnedNanos == NEVER || counts.lastSampleNanos() - known.returnedNanos > 0;
                if (!ejected.containsKey(key) && sinceReturn && counts.recentSuccesses(now) >= OutlierSettings.MIN_LATENCY_SAMPLES) {
                    samples.add(new Sample(key, counts.expectedLatencyNanos(now)));
                }
            }
            if (samples.size() < 2) {
                return;
            }
            samples.sort(Comparator.comparingLong(Sample::nanos).reversed());
            for (Sample sample : samples) {
                long[] peers = samples.stream().filter(other -> other != sample).mapToLong(Sample::nanos).sorted().toArray();
                double median = peers.length % 2 == 1 ? peers[peers.length / 2]
                        : (peers[peers.length / 2 - 1] + peers[peers.length / 2]) / 2.0;
                if (sample.nanos() <= settings.latencyFactor() * median) {
                    break; // sorted slowest first: no later one is slower
                }
                Health known = health.computeIfAbsent(sample.provider(), k -> new Health());
                eject(sample.provider(), known, settings, state, String.format(Locale.ROOT, "expected latency %.1f ms, %.1fx the median %.1f ms of %d peers",
                        sample.nanos() / 1e6, sample.nanos() / median, median / 1e6, peers.length));
            }
        }
    }

    /**
     * Brings back the providers whose ejection is over, on probation; with ejection turned off,
     * every ejected provider. Cheap when nothing is due (one volatile read and a clock read).
     *
     * @return whether some provider came back (the directory published a new state)
     */
    boolean returnDue(OutlierSettings settings) {
        if (!anyEjected) {
            return false;
        }
        long now = ticker.read();
        if (settings.enabled() && now - nextReturnNanos < 0) {
            return false;
        }
        synchronized (this) {
            boolean changed = ejected.entrySet().removeIf(entry -> {
                if (settings.enabled() && now - entry.getValue() < 0) {
                    return false;
                }
                Health known = health.get(entry.getKey());
                if (known != null) {
                    if (settings.enabled() && !known.awaitingProbe) {
                        known.awaitingProbe = true;
                        awaitingProbe.incrementAndGet();
                    }
                    known.probing.set(false);
                    known.returnedNanos = now;
                    known.countsFrom = ++decisions;
                    known.probationEndNanos = now + settings.ejection().toNanos();
                    known.failuresInRow.set(0);
                }
                counters.returned();
                LOG.info("Provider {} of service {} comes back on probation after its ejection", AbstractClusterInvoker.describe(entry.getKey()), service);
                return true;
            });
            if (changed) {
                published();
            }
            return changed;
        }
    }

    /** The providers ejected now. */
    synchronized List<Invoker<?>> ejected() {
        return List.copyOf(ejected.keySet());
    }

    /** Ejects {@code provider} when the cap allows; guarded by this. */
    private boolean eject(Invoker<?> provider, Health known, OutlierSettings settings, DirectoryState<?> state, String why) {
        forgetDeparted(state);
        int members = (int) state.invokers().stream().map(InvokerView::unwrap).distinct().count();
        int cap = settings.maxEjected(members);
        if (ejected.size() >= cap) {
            if (cap > 0) { // with one provider there is nothing to say
                capped.warn("Provider " + AbstractClusterInvoker.describe(provider) + " of service " + service + " is an outlier (" + why
                        + ") but stays: " + ejected.size() + " of " + members + " providers are ejected already (outlier-max-percent="
                        + settings.maxPercent() + ")");
            }
            return false;
        }
        long nanos = settings.ejectionAfter(known.ejections).toNanos();
        known.ejections++;
        known.probationEndNanos = NEVER;
        long now = ticker.read();
        known.countsFrom = ++decisions;
        ejected.put(provider, now + nanos);
        published(); // first: no call is admitted to it from now on
        counters.ejected();
        LOG.warn("Provider {} of service {} ejected for {} ms: {}", AbstractClusterInvoker.describe(provider), service, TimeUnit.NANOSECONDS.toMillis(nanos), why);
        return true;
    }

    /** Drops the ejected providers that left the directory (counted as returned); guarded by this. */
    private void forgetDeparted(DirectoryState<?> state) {
        List<Invoker<?>> members = state.invokers().stream().<Invoker<?>>map(InvokerView::unwrap).toList();
        for (var entry = ejected.keySet().iterator(); entry.hasNext(); ) {
            Invoker<?> provider = entry.next();
            if (members.stream().noneMatch(member -> member == provider)) {
                entry.remove();
                counters.returned();
            }
        }
    }

    /** Hands the ejected set to the directory and notes the next return; guarded by this. */
    /** The probe of {@code known} (if it was awaited) has its outcome: calls flow again. */
    private void probed(Health known) {
        if (known.awaitingProbe) {
            synchronized (this) {
                if (known.awaitingProbe) {
                    known.awaitingProbe = false;
                    awaitingProbe.decrementAndGet();
                }
            }
        }
        known.probing.set(false);
    }

    private void published() {
        anyEjected = !ejected.isEmpty();
        ejectedNow = Set.copyOf(ejected.keySet());
        nextReturnNanos = ejected.values().stream().min((a, b) -> Long.compare(a - b, 0)).orElse(0L);
        publish.accept(List.copyOf(ejected.keySet()));
    }
}
