package dev.weft.rpc.examples;

import com.google.common.base.Preconditions;
import com.google.common.base.Ticker;
import com.google.common.collect.ConcurrentHashMultiset;
import com.google.common.primitives.Longs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the consumer saw over time, in slices of {@link #SLICE_MILLIS}: answers per provider,
 * mocked answers, failed calls and latencies. Times come from the injected {@link Ticker}, counted
 * from construction. Thread-safe: callers {@link #record} concurrently; {@link #seconds} and
 * {@link #window} read consistent-enough snapshots (a call recorded meanwhile may or may not count).
 */
final class TimeSeries {

    static final long SLICE_MILLIS = 100;
    private static final long SLICE_NANOS = SLICE_MILLIS * 1_000_000;

    private final Ticker ticker;
    private final long startNanos;
    private final List<String> providers;
    private final ConcurrentMap<Long, Slice> slices = new ConcurrentHashMap<>();

    /** Counts from now on {@code ticker}; {@code providers} fixes the order of the per-provider columns. */
    TimeSeries(Ticker ticker, List<String> providers) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.providers = List.copyOf(providers);
        this.startNanos = ticker.read();
    }

    /** Milliseconds since this series started. */
    long elapsedMillis() {
        return (ticker.read() - startNanos) / 1_000_000;
    }

    /**
     * Records one call that ended now: answered by {@code provider} (its name), or mocked, or failed
     * (provider {@code null} for both), after {@code latencyNanos}.
     */
    void record(CallTally.Outcome outcome, String provider, long latencyNanos) {
        record(outcome, provider, latencyNanos, false);
    }

    /**
     * As {@link #record(CallTally.Outcome, String, long)}; a {@code tagged} call (one that carried the
     * canary tag) also counts in {@link Point#tagged} when a provider answered it.
     */
    void record(CallTally.Outcome outcome, String provider, long latencyNanos, boolean tagged) {
        Objects.requireNonNull(outcome, "outcome");
        long slice = Math.max(0, ticker.read() - startNanos) / SLICE_NANOS;
        slices.computeIfAbsent(slice, s -> new Slice()).add(outcome, provider, latencyNanos, tagged);
    }

    /**
     * One second (or one window) of calls: answers per provider ({@code answered}, every call;
     * {@code tagged}, the calls that carried the canary tag), mocked, empty and failed calls, latency
     * percentiles. Immutable.
     */
    record Point(long fromMillis, long toMillis, Map<String, Long> answered, long mocked, long empty, long failed,
                 long p50Nanos, long p99Nanos, Map<String, Long> tagged) {

        Point {
            answered = Collections.unmodifiableMap(new LinkedHashMap<>(answered));
            tagged = Collections.unmodifiableMap(new LinkedHashMap<>(tagged));
        }

        /** Tagged calls answered by {@code provider}. */
        long tagged(String provider) {
            return tagged.getOrDefault(provider, 0L);
        }

        /** Tagged calls answered, by any provider. */
        long taggedCalls() {
            return tagged.values().stream().mapToLong(Long::longValue).sum();
        }

        long calls() {
            return answered.values().stream().mapToLong(Long::longValue).sum() + mocked + empty + failed;
        }

        long answered(String provider) {
            return answered.getOrDefault(provider, 0L);
        }

        /** Calls per second of {@code count} over this window (0 for an empty window). */
        double perSecond(long count) {
            return toMillis == fromMillis ? 0 : count * 1000.0 / (toMillis - fromMillis);
        }
    }

    /** One point per whole or partial second from the start up to {@code untilMillis}. */
    List<Point> seconds(long untilMillis) {
        Preconditions.checkArgument(untilMillis >= 0, "untilMillis: %s (expected: >= 0)", untilMillis);
        List<Point> points = new ArrayList<>();
        for (long from = 0; from < untilMillis; from += 1000) {
            points.add(window(from, Math.min(from + 1000, untilMillis)));
        }
        return points;
    }

    /**
     * The calls that ended in {@code [fromMillis, toMillis)}, both ends rounded down to whole slices,
     * so adjacent windows never count a call twice.
     */
    Point window(long fromMillis, long toMillis) {
        Preconditions.checkArgument(fromMillis <= toMillis, "window: [%s, %s) (expected: from <= to)",
                fromMillis, toMillis);
        Map<String, Long> answered = new LinkedHashMap<>();
        Map<String, Long> tagged = new LinkedHashMap<>();
        for (String provider : providers) {
            answered.put(provider, 0L);
            tagged.put(provider, 0L);
        }
        long mocked = 0;
        long empty = 0;
        long failed = 0;
        List<Long> latencies = new ArrayList<>();
        for (long s = fromMillis / SLICE_MILLIS; s < toMillis / SLICE_MILLIS; s++) {
            Slice slice = slices.get(s);
            if (slice == null) {
                continue;
            }
            for (ConcurrentHashMultiset.Entry<String> entry : slice.answered.entrySet()) {
                answered.merge(entry.getElement(), (long) entry.getCount(), Long::sum);
            }
            for (ConcurrentHashMultiset.Entry<String> entry : slice.tagged.entrySet()) {
                tagged.merge(entry.getElement(), (long) entry.getCount(), Long::sum);
            }
            mocked += slice.mocked.sum();
            empty += slice.empty.sum();
            failed += slice.failed.sum();
            synchronized (slice.latencies) {
                latencies.addAll(slice.latencies);
            }
        }
        Percentiles percentiles = Percentiles.of(Longs.toArray(latencies));
        return new Point(fromMillis, toMillis, answered, mocked, empty, failed, percentiles.percentile(50),
                percentiles.percentile(99), tagged);
    }

    private static final class Slice {
        final ConcurrentHashMultiset<String> answered = ConcurrentHashMultiset.create();
        final ConcurrentHashMultiset<String> tagged = ConcurrentHashMultiset.create();
        final LongAdder mocked = new LongAdder();
        final LongAdder empty = new LongAdder();
        final LongAdder failed = new LongAdder();
        final List<Long> latencies = Collections.synchronizedList(new ArrayList<>());

        void add(CallTally.Outcome outcome, String provider, long latencyNanos, boolean isTagged) {
            switch (outcome) {
                case OK -> {
                    answered.add(Objects.requireNonNull(provider, "provider"));
                    if (isTagged) {
                        tagged.add(provider);
                    }
                }
                case MOCKED -> mocked.increment();
                case EMPTY -> empty.increment();
                case FAILED -> failed.increment();
            }
            latencies.add(latencyNanos);
        }
    }
}
