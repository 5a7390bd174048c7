package dev.weft.rpc.examples;

import com.google.common.base.Preconditions;
import com.google.common.base.Ticker;
import com.google.common.collect.ConcurrentHashMultiset;
import com.google.common.collect.ImmutableMultiset;
import dev.weft.rpc.protocol.filter.CallContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Calls one consumer under a steady load for a fixed time while the main thread applies the
 * scheduled events, recording every call in a {@link TimeSeries}. Each of the {@code threads} callers
 * makes one call per {@code threads / callsPerSecond} seconds (a closed loop: slow calls lower the
 * rate, they never cause a burst later). With a {@link Canary}, every {@code every}-th call carries
 * the canary tag in its {@link CallContext} (tag routing, docs/operating.md), and the series counts
 * who answered those calls apart. Each {@link #run} owns its caller pool and shuts it down before
 * returning; the load is bounded by the rate and by the duration.
 */
final class LiveRun {

    private static final long REDRAW_MILLIS = 100;

    private final long durationMillis;
    private final int threads;
    private final int callsPerSecond;
    private final Canary canary;

    /** A run whose calls carry no tag. */
    LiveRun(long durationMillis, int threads, int callsPerSecond) {
        this(durationMillis, threads, callsPerSecond, null);
    }

    /** A run whose every {@code canary.every()}-th call carries the canary tag ({@code canary} null: none). */
    LiveRun(long durationMillis, int threads, int callsPerSecond, Canary canary) {
        Preconditions.checkArgument(durationMillis > 0, "duration: %s ms (expected: > 0)", durationMillis);
        Preconditions.checkArgument(threads > 0, "threads: %s (expected: > 0)", threads);
        Preconditions.checkArgument(callsPerSecond > 0, "rate: %s (expected: > 0)", callsPerSecond);
        this.durationMillis = durationMillis;
        this.threads = threads;
        this.callsPerSecond = callsPerSecond;
        this.canary = canary;
    }

    /**
     * The tagged share of the calls: every {@code every}-th call (by sequence number) carries the
     * attachment {@value #TAG_ATTACHMENT}={@code tag}, set on the caller's thread in {@code context}
     * (the consumer director's {@link CallContext}).
     */
    record Canary(CallContext context, String tag, int every) {

        /** The call attachment tag routing reads (DESIGN.md §16). */
        static final String TAG_ATTACHMENT = "tag";
        /** The default share: one call in four. */
        static final int EVERY = 4;

        Canary {
            Objects.requireNonNull(context, "context");
            Objects.requireNonNull(tag, "tag");
            Preconditions.checkArgument(every >= 1, "every: %s (expected: >= 1)", every);
        }

        boolean tags(long sequence) {
            return sequence % every == 0;
        }
    }

    /** An event as it was applied: when applying it ended (milliseconds into the run), and the error if it failed. */
    record Applied(LiveEvent event, long atMillis, String error) {
    }

    /**
     * What the run saw: the caller's own record of every call ({@code series}) and, when the
     * consumer's meters were read, their counts at the start, after each event and at the end
     * ({@code meterMarks}, empty otherwise), their counts at each whole second of the load
     * ({@code meterSeconds}: the start, then one per second, as a scraper would read them) and each
     * provider's address ({@code addresses}).
     */
    record Result(List<String> providers, long durationMillis, TimeSeries series, List<Applied> events,
                  ImmutableMultiset<String> errors, List<ConsumerMeters.Counts> meterMarks, Map<String, String> addresses,
                  List<ConsumerMeters.Counts> meterSeconds) {

        Result {
            providers = List.copyOf(providers);
            events = List.copyOf(events);
            meterMarks = List.copyOf(meterMarks);
            addresses = Map.copyOf(addresses);
            meterSeconds = List.copyOf(meterSeconds);
        }

        /** A result without meters. */
        Result(List<String> providers, long durationMillis, TimeSeries series, List<Applied> events,
               ImmutableMultiset<String> errors) {
            this(providers, durationMillis, series, events, errors, List.of(), Map.of(), List.of());
        }
    }

    /** Where the run reads the consumer's meters: their counts now, and each provider's address. */
    interface MeterSource {
        ConsumerMeters.Counts counts();

        Map<String, String> addresses();
    }

    /** Something that applies an event to the cluster. */
    interface EventTarget {
        void apply(LiveEvent event) throws Exception;
    }

    /**
     * Runs the load against {@code service} and applies {@code events} (sorted by time) on this
     * thread at their offsets; an event is applied no sooner than half its planned gap after the
     * previous one was applied, so a slow application never leaves the previous event no window.
     *
     * @throws InterruptedException when interrupted (callers are then stopped)
     */
    Result run(GreetingService service, List<String> providers, List<LiveEvent> events, EventTarget target,
               ProgressBar progress, Ticker ticker) throws InterruptedException {
        return run(service, providers, events, target, progress, ticker, null);
    }

    /**
     * As {@link #run(GreetingService, List, List, EventTarget, ProgressBar, Ticker)}, reading
     * {@code meters} (when not null) as the load starts, right after each event and at the end.
     */
    Result run(GreetingService service, List<String> providers, List<LiveEvent> events, EventTarget target,
               ProgressBar progress, Ticker ticker, MeterSource meters) throws InterruptedException {
        Objects.requireNonNull(service, "service");
        TimeSeries series = new TimeSeries(ticker, providers);
        ConcurrentHashMultiset<String> errors = ConcurrentHashMultiset.create();
        long periodNanos = TimeUnit.SECONDS.toNanos(threads) / callsPerSecond;
        AtomicLong sequence = new AtomicLong();
        AtomicInteger number = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "playground-live-caller-" + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        List<Applied> applied = new ArrayList<>();
        List<ConsumerMeters.Counts> marks = new ArrayList<>();
        List<ConsumerMeters.Counts> seconds = new ArrayList<>();
        try {
            if (meters != null) {
                marks.add(meters.counts());
                seconds.add(marks.get(0));
            }
            for (int t = 0; t < threads; t++) {
                long offset = periodNanos * t / threads;
                pool.execute(() -> pace(service, series, errors, ticker, sequence, periodNanos, offset));
            }
            pool.shutdown();
            String label = "live cluster";
            long previousAt = 0;
            long previousDone = 0;
            for (LiveEvent event : events) {
                // Each event's window keeps at least half its planned length: an event whose
                // application ran long pushes the next one back.
                long startAt = Math.max(event.atMillis(), previousDone + (event.atMillis() - previousAt) / 2);
                while (series.elapsedMillis() < startAt) {
                    progress.drawAt(series.elapsedMillis(), label);
                    sampleSecond(meters, seconds, series.elapsedMillis());
                    Thread.sleep(Math.max(1, Math.min(REDRAW_MILLIS, startAt - series.elapsedMillis())));
                }
                String error = null;
                try {
                    target.apply(event);
                } catch (Exception e) {
                    error = e.toString();
                }
                // A rule is in force once written: its window starts when applying it ended.
                previousAt = event.atMillis();
                previousDone = series.elapsedMillis();
                applied.add(new Applied(event, previousDone, error));
                if (meters != null) {
                    marks.add(meters.counts());
                }
                label = "live: " + event.label();
            }
            while (!pool.awaitTermination(REDRAW_MILLIS, TimeUnit.MILLISECONDS)) {
                progress.drawAt(series.elapsedMillis(), label);
                sampleSecond(meters, seconds, series.elapsedMillis());
            }
            sampleSecond(meters, seconds, series.elapsedMillis());
            if (meters != null) {
                marks.add(meters.counts());
            }
        } finally {
            pool.shutdownNow();
        }
        return new Result(providers, durationMillis, series, applied, ImmutableMultiset.copyOf(errors), marks,
                meters == null ? Map.of() : meters.addresses(), seconds);
    }

    /**
     * Reads the meters once each whole second of the load has passed (second {@code n} read at
     * {@code n} s or just after, within one redraw), up to the run's duration.
     */
    private void sampleSecond(MeterSource meters, List<ConsumerMeters.Counts> seconds, long elapsedMillis) {
        if (meters != null && seconds.size() <= durationMillis / 1000 && elapsedMillis >= seconds.size() * 1000L) {
            seconds.add(meters.counts());
        }
    }

    /**
     * One caller: a call every {@code periodNanos}, starting {@code offsetNanos} in. A call that
     * overruns its period pushes the next one back rather than queueing a catch-up burst, so a stall
     * (a provider timing out) never turns into a flood when it ends.
     */
    private void pace(GreetingService service, TimeSeries series, ConcurrentHashMultiset<String> errors,
                      Ticker ticker, AtomicLong sequence, long periodNanos, long offsetNanos) {
        long next = ticker.read() + offsetNanos;
        while (series.elapsedMillis() < durationMillis) {
            long wait = next - ticker.read();
            if (wait > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                continue;
            }
            long number = sequence.getAndIncrement();
            if (canary != null && canary.tags(number)) {
                CallContext.Scope tagged = canary.context().with(Canary.TAG_ATTACHMENT, canary.tag());
                try {
                    call(service, "live-" + number, series, errors, ticker, true);
                } finally {
                    tagged.close();
                }
            } else {
                call(service, "live-" + number, series, errors, ticker, false);
            }
            next = Math.max(next + periodNanos, ticker.read());
        }
    }

    private static void call(GreetingService service, String name, TimeSeries series,
                             ConcurrentHashMultiset<String> errors, Ticker ticker, boolean tagged) {
        long start = ticker.read();
        try {
            String answer = service.greet(name);
            long latency = ticker.read() - start;
            if (answer == null) {
                series.record(CallTally.Outcome.EMPTY, null, latency);
            } else if (GreetingServiceImpl.isProviderAnswer(name, answer)) {
                series.record(CallTally.Outcome.OK, answer.substring(name.length() + 1), latency, tagged);
            } else {
                series.record(CallTally.Outcome.MOCKED, null, latency);
            }
        } catch (RuntimeException e) {
            series.record(CallTally.Outcome.FAILED, null, ticker.read() - start);
            errors.add(CallTally.kindOf(e));
        }
    }
}
