package dev.weft.rpc.benchmarks;

import com.google.common.util.concurrent.RateLimiter;
import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.cluster.ResilienceStats;
import dev.weft.rpc.cluster.ServiceResilience;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.filter.ExecuteLimits;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * Run by hand (not JMH, not CI): what the resilience keys buy, each scenario against plain
 * {@code failover} in the same run, with real {@code weft} providers on 127.0.0.1 (each its own
 * {@link Weft}) and a consumer {@link Weft} per configuration.
 *
 * <ul>
 *   <li>{@code brownout}: 3 providers, each answering half of the calls "busy"; {@code failover}
 *       {@code retries=2} with the retry budget off, then with the default budget: attempts per call
 *       (counted by the providers' {@link FaultFilter}), answered, failed (and failed by the budget).</li>
 *   <li>{@code slow}: 4 providers answering in 2 ms, one of them in 40 ms: p99 of the 3 healthy alone,
 *       of plain {@code failover} over the 4, of {@code cluster=hedging} ({@code p95} with the
 *       {@code random} balancer, with the default budget and {@code retry-budget=0.3}, and the
 *       {@code p2c} balancer, and a fixed {@code 5ms}), and with
 *       {@code outlier-latency=3} (time to the ejection, p99 after it).</li>
 *   <li>{@code overload}: one provider with a capacity of 4 calls at once (a fair semaphore: calls
 *       waiting for one of the 4 take it in arrival order), 5 ms each (800/s), offered
 *       twice its capacity (open loop, 1,600/s): goodput and p99 of the answered calls without a limit
 *       and with {@code executes=auto}, against the unloaded p99.</li>
 *   <li>{@code failing}: 4 providers, one failing every call (a timeout: it answers after 300 ms, the
 *       consumer waits 100 ms): attempts reaching it per
 *       ejection with {@code outlier-failures=5} ({@code outlier-ejection=2s}, so that several periods
 *       fit in a run), against plain {@code failover} with ejection off; and, as each attempt
 *       arrives, what the consumer's detector says: attempts before the first ejection (the
 *       threshold's failures plus the attempts already in flight when it was reached) and attempts
 *       reaching it while it is ejected (sent after the threshold was seen: the bar's figure).</li>
 * </ul>
 *
 * <pre>
 * mvn -B -ntp -q -pl rpc-benchmarks -am package -DskipTests
 * java -cp rpc-benchmarks/target/benchmarks.jar dev.weft.rpc.benchmarks.ResilienceBenchmark [seconds] [scenario...]
 * </pre>
 */
public final class ResilienceBenchmark {

    private static final String SERVICE = Greeter.class.getName();
    private static final int CALLERS = 8;

    private final int seconds;
    private final List<Weft> providers = new ArrayList<>();
    private final BenchmarkResults results;

    private ResilienceBenchmark(int seconds, BenchmarkResults results) {
        this.seconds = seconds;
        this.results = results;
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        List<String> scenarios = args.length > 1 ? Arrays.asList(args).subList(1, args.length)
                : List.of("brownout", "slow", "overload", "failing");
        System.out.println("load average before: " + loadAverage() + "; " + seconds + " s per measurement, " + CALLERS + " callers");
        BenchmarkResults results = BenchmarkResults.start("resilience", args).put("secondsPerMeasurement", seconds)
                .put("callers", CALLERS).put("scenarios", scenarios);
        warmUp(results);
        for (String scenario : scenarios) {
            ResilienceBenchmark run = new ResilienceBenchmark(seconds, results);
            try {
                switch (scenario) {
                    case "brownout" -> run.brownout();
                    case "slow" -> run.slow();
                    case "overload" -> run.overload();
                    case "failing" -> run.failing();
                    default -> throw new IllegalArgumentException("scenario: " + scenario
                            + " (expected: brownout, slow, overload or failing)");
                }
            } finally {
                run.providers.forEach(Weft::close);
            }
        }
        System.out.println("load average after: " + loadAverage());
        results.write();
        System.exit(0);
    }

    /** Compiles the call path on both sides before anything is measured: 3 s of calls to a plain provider. */
    private static void warmUp(BenchmarkResults results) throws Exception {
        ResilienceBenchmark run = new ResilienceBenchmark(3, results);
        try (Weft consumer = Weft.builder().application("warm-up").build()) {
            String url = run.export(name -> "hi " + name, "");
            closedLoop(consumer.refer(Greeter.class, "url=" + url), CALLERS, run.seconds);
        } finally {
            run.providers.forEach(Weft::close);
        }
    }

    // ------------------------------------------------------------------ scenarios

    private void brownout() throws Exception {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            urls.add(export(name -> "hi " + name, "fault=busy:0.5"));
        }
        String common = "retries=2&timeout=1000&loadbalance=random&url=" + String.join(",", urls);
        System.out.println("\n== brownout: 3 providers, each answering 50% of calls busy; failover retries=2");
        for (String config : List.of("retry-budget=1", "retry-budget=0.2")) {
            try (Weft consumer = Weft.builder().application("brownout").build()) {
                Greeter greeter = consumer.refer(Greeter.class, common + "&" + config);
                long before = attempts();
                Outcome outcome = closedLoop(greeter, CALLERS, seconds);
                long attempts = attempts() - before;
                ServiceResilience resilience = resilience(consumer);
                System.out.printf(Locale.ROOT, "%-18s calls %7d  answered %7d  failed %6d (by the budget %6d, other %d)"
                                + "  attempts/call %.3f  budget refusals %d%n", config, outcome.calls(), outcome.answered(),
                        outcome.failed(), outcome.failedBy("retry budget spent"), outcome.failed() - outcome.failedBy("retry budget spent"),
                        (double) attempts / outcome.calls(), resilience.budgetRefusals());
                results.add("brownout", BenchmarkResults.row("configuration", config, "calls", outcome.calls(),
                        "answered", outcome.answered(), "failed", outcome.failed(),
                        "failedByBudget", outcome.failedBy("retry budget spent"), "attemptsPerCall", (double) attempts / outcome.calls(),
                        "budgetRefusals", resilience.budgetRefusals()));
            }
        }
    }

    private void slow() throws Exception {
        List<String> healthy = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            healthy.add(export(sleeping(2), ""));
        }
        String slow = export(sleeping(40), "");
        String all = "url=" + String.join(",", healthy) + "," + slow;
        Map<String, String> configs = new LinkedHashMap<>();
        configs.put("healthy 3 only", "url=" + String.join(",", healthy));
        configs.put("failover (4)", all);
        configs.put("hedging p95", all + "&cluster=hedging");
        // with random a quarter of the first attempts go to the slow provider: hedging them all needs more than the default 20 % budget
        configs.put("hedging p95 budget .3", all + "&cluster=hedging&retry-budget=0.3");
        configs.put("hedging p95 + p2c", all + "&cluster=hedging&loadbalance=p2c");
        configs.put("hedging 5ms", all + "&cluster=hedging&hedge-delay=5ms");
        configs.put("outlier-latency=3", all + "&outlier-latency=3");
        System.out.println("\n== slow provider: 4 providers at 2 ms, one of them at 40 ms");
        double healthyP99 = 0;
        for (Map.Entry<String, String> config : configs.entrySet()) {
            try (Weft consumer = Weft.builder().application("slow").build()) {
                Greeter greeter = consumer.refer(Greeter.class, "retries=2&timeout=1000&loadbalance=random&" + config.getValue());
                String label = config.getKey();
                Outcome outcome = closedLoop(greeter, CALLERS, seconds, () -> resilience(consumer).ejections() > 0);
                if (label.startsWith("healthy")) {
                    healthyP99 = outcome.p99Millis();
                }
                ServiceResilience resilience = resilience(consumer);
                System.out.printf(Locale.ROOT, "%-21s calls %7d  p50 %6.2f ms  p99 %6.2f ms (%.2fx healthy)%s%s%n", label,
                        outcome.calls(), outcome.percentileMillis(50), outcome.p99Millis(), outcome.p99Millis() / healthyP99,
                        resilience.hedgesSent() == 0 ? "" : String.format(Locale.ROOT, "  hedges sent %d (%.1f%% of calls), won %d,"
                                + " budget refusals %d", resilience.hedgesSent(), 100.0 * resilience.hedgesSent() / outcome.calls(),
                                resilience.hedgesWon(), resilience.budgetRefusals()),
                        outcome.marked() ? String.format(Locale.ROOT, "  ejected after %.1f s; after it: p99 %.2f ms (%.2fx healthy),"
                                + " %d calls", outcome.markedAfterSeconds(), outcome.p99AfterMarkMillis(),
                                outcome.p99AfterMarkMillis() / healthyP99, outcome.callsAfterMark()) : "");
                results.add("slow", BenchmarkResults.row("configuration", label, "calls", outcome.calls(),
                        "p50Ms", outcome.percentileMillis(50), "p99Ms", outcome.p99Millis(), "p99VsHealthy", outcome.p99Millis() / healthyP99,
                        "hedgesSent", resilience.hedgesSent(), "hedgesWon", resilience.hedgesWon(),
                        "budgetRefusals", resilience.budgetRefusals(),
                        "ejectedAfterS", outcome.marked() ? outcome.markedAfterSeconds() : null,
                        "p99AfterEjectionMs", outcome.marked() ? outcome.p99AfterMarkMillis() : null,
                        "callsAfterEjection", outcome.marked() ? outcome.callsAfterMark() : null));
            }
        }
    }

    private void overload() throws Exception {
        // The provider's 4 cores. Fair: waiting calls take a core in the order they asked, as threads
        // waiting for a CPU do; an unfair semaphore lets a call that just arrived overtake calls
        // already waiting, which stretches the tail whatever the provider admits.
        Semaphore cores = new Semaphore(4, true);
        Greeter limited = name -> {
            try {
                if (!cores.tryAcquire(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("no core free within 10 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            try {
                sleepMillis(5);
                return "hi " + name;
            } finally {
                cores.release();
            }
        };
        // connection-calls raised: at its default (64) the provider stops reading the consumer's one
        // connection, so the excess waits in the socket where no provider-side limit can see it
        String plain = export(limited, "connection-calls=4096");
        String auto = export(limited, "executes=auto&connection-calls=4096");
        System.out.println("\n== overload: one provider, 4 calls at once, 5 ms each; offered twice its capacity");
        try (Weft consumer = Weft.builder().application("overload").build()) {
            Greeter greeter = consumer.refer(Greeter.class, "cluster=failfast&timeout=1000&url=" + plain);
            Outcome unloaded = closedLoop(greeter, 1, Math.max(2, seconds / 2));
            Outcome capacity = closedLoop(greeter, 8, Math.max(2, seconds / 2));
            double perSecond = capacity.answered() / capacity.seconds();
            System.out.printf(Locale.ROOT, "%-18s p99 %6.2f ms; capacity (8 closed-loop callers) %.0f answers/s%n", "unloaded",
                    unloaded.p99Millis(), perSecond);
            results.put("overloadUnloaded", BenchmarkResults.row("p99Ms", unloaded.p99Millis(), "capacityPerS", perSecond,
                    "coresInArrivalOrder", cores.isFair()));
            for (String url : List.of(plain, auto)) {
                Greeter offered = consumer.refer(Greeter.class, "cluster=failfast&timeout=1000&url=" + url);
                Outcome outcome = openLoop(offered, 2 * perSecond, seconds);
                System.out.printf(Locale.ROOT, "%-18s offered %.0f/s  goodput %.0f/s (%.2fx capacity)  p99 answered %.2f ms (%.2fx"
                                + " unloaded)  failed %d (busy %d, timeout %d)%n", url == auto ? "executes=auto" : "no limit",
                        2 * perSecond, outcome.answered() / outcome.seconds(), outcome.answered() / outcome.seconds() / perSecond,
                        outcome.p99Millis(), outcome.p99Millis() / unloaded.p99Millis(), outcome.failed(),
                        outcome.failedBy("busy"), outcome.failedBy("imeout"));
                results.add("overload", BenchmarkResults.row("configuration", url == auto ? "executes=auto" : "no limit",
                        "offeredPerS", 2 * perSecond, "goodputPerS", outcome.answered() / outcome.seconds(),
                        "goodputVsCapacity", outcome.answered() / outcome.seconds() / perSecond, "p99Ms", outcome.p99Millis(),
                        "p99VsUnloaded", outcome.p99Millis() / unloaded.p99Millis(), "failed", outcome.failed(),
                        "busy", outcome.failedBy("busy"), "timeouts", outcome.failedBy("imeout")));
            }
            results.put("overloadLimits", BenchmarkResults.row("busyAnswersCounted", providers.stream()
                    .mapToLong(p -> ExecuteLimits.of(p.director()).busyAnswers()).sum(), "adaptiveLimits", providers.stream()
                    .map(p -> ExecuteLimits.of(p.director()).adaptiveLimits()).filter(m -> !m.isEmpty()).toList().toString()));
            System.out.println("busy answers counted by ExecuteLimits: " + providers.stream()
                    .mapToLong(p -> ExecuteLimits.of(p.director()).busyAnswers()).sum() + "; adaptive limits "
                    + providers.stream().map(p -> ExecuteLimits.of(p.director()).adaptiveLimits()).filter(m -> !m.isEmpty()).toList());
        }
    }

    private void failing() throws Exception {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            urls.add(export(name -> "hi " + name, ""));
        }
        Weft failingProvider = Weft.builder().application("failing").build();
        providers.add(failingProvider);
        // what the consumer's detector says as each attempt arrives (same JVM): before its first ejection, or while ejected
        AtomicReference<ServiceResilience> watched = new AtomicReference<>();
        LongAdder beforeFirstEjection = new LongAdder();
        LongAdder whileEjected = new LongAdder();
        Greeter timingOut = name -> {
            ServiceResilience consumerSide = watched.get();
            if (consumerSide != null && consumerSide.ejections() == 0) {
                beforeFirstEjection.increment();
            } else if (consumerSide != null && consumerSide.ejectedNow() > 0) {
                whileEjected.increment();
            }
            sleepMillis(300);
            return "hi " + name;
        };
        // fails every call the way a hung provider does: the consumer's timeout (100 ms) ends it, and failover retries
        URL failingUrl = failingProvider.export(Greeter.class, timingOut, "weft://127.0.0.1:0?fault=busy:0").getInvoker().getUrl();
        urls.add("weft://127.0.0.1:" + failingUrl.getPort());
        String common = "retries=2&timeout=100&loadbalance=random&outlier-ejection=2s&url=" + String.join(",", urls);
        System.out.println("\n== failing provider: 4 providers, one timing out on every call (timeout=100); outlier-ejection=2s");
        for (String config : List.of("outlier-failures=0", "outlier-failures=5")) {
            try (Weft consumer = Weft.builder().application("failing").build()) {
                Greeter greeter = consumer.refer(Greeter.class, common + "&" + config);
                FaultFilter.Counts counts = FaultFilter.countsOf(failingProvider.director());
                long before = counts.attempts();
                beforeFirstEjection.reset();
                whileEjected.reset();
                watched.set(resilience(consumer));
                List<Long> atEjections = new ArrayList<>(); // attempts reached when each ejection was seen (polled every 10 ms)
                Outcome outcome = closedLoop(greeter, CALLERS, seconds, () -> {
                    if (resilience(consumer).ejections() > atEjections.size()) {
                        atEjections.add(counts.attempts() - before);
                    }
                    return false;
                });
                long reached = counts.attempts() - before;
                List<Long> perPeriod = new ArrayList<>();
                for (int i = 0; i < atEjections.size(); i++) {
                    perPeriod.add(atEjections.get(i) - (i == 0 ? 0 : atEjections.get(i - 1)));
                }
                System.out.printf(Locale.ROOT, "%-18s calls %7d  failed %d  attempts reaching the failing provider %d"
                                + " (%.1f/s)  ejections %d%s%n", config, outcome.calls(), outcome.failed(), reached,
                        reached / outcome.seconds(), resilience(consumer).ejections(),
                        perPeriod.isEmpty() ? "" : "  attempts per ejection period (raw, polled): " + perPeriod + ", after the last: "
                                + (reached - atEjections.get(atEjections.size() - 1)));
                results.add("failing", BenchmarkResults.row("configuration", config, "calls", outcome.calls(),
                        "failed", outcome.failed(), "attemptsReachingIt", reached, "attemptsPerS", reached / outcome.seconds(),
                        "ejections", resilience(consumer).ejections(), "attemptsPerEjectionPeriod", perPeriod,
                        "beforeFirstEjection", perPeriod.isEmpty() ? null : beforeFirstEjection.sum(),
                        "whileEjected", perPeriod.isEmpty() ? null : whileEjected.sum()));
                if (!perPeriod.isEmpty()) {
                    // the bar's figure: attempts sent once the threshold was seen; those sent before it are in flight then
                    // (with 8 callers up to 8), fail later, and are ignored by the detector
                    System.out.printf(Locale.ROOT, "%-18s before the first ejection %d (the %s failures that ejected it, the rest"
                                    + " already in flight); reaching it while ejected %d (checked on arrival: includes attempts sent just before the ejection that"
                                    + " arrive after it)%n", "",
                            beforeFirstEjection.sum(), config.substring(config.indexOf('=') + 1), whileEjected.sum());
                }
            }
        }
    }

    // ------------------------------------------------------------------ providers and load

    /** Exports {@code implementation} on a provider of its own; returns {@code weft://127.0.0.1:port}. */
    private String export(Greeter implementation, String parameters) {
        Weft provider = Weft.builder().application("provider").build();
        providers.add(provider);
        URL bound = provider.export(Greeter.class, implementation, "weft://127.0.0.1:0" + (parameters.isEmpty() ? "" : "?" + parameters))
                .getInvoker().getUrl();
        return "weft://127.0.0.1:" + bound.getPort();
    }

    private long attempts() {
        return providers.stream().mapToLong(p -> FaultFilter.countsOf(p.director()).attempts()).sum();
    }

    private static ServiceResilience resilience(Weft consumer) {
        return ResilienceStats.of(consumer.director()).service(SERVICE);
    }

    private static Greeter sleeping(long millis) {
        return name -> {
            sleepMillis(millis);
            return "hi " + name;
        };
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What a load produced: latencies of the answered calls (with their end times), failures by message. */
    private record Outcome(long calls, long answered, Map<String, Long> failures, long[] latencies, long[] ends, double seconds,
                           long markNanos, long startNanos) {

        long failed() {
            return calls - answered;
        }

        long failedBy(String text) {
            return failures.entrySet().stream().filter(e -> e.getKey().contains(text)).mapToLong(Map.Entry::getValue).sum();
        }

        double percentileMillis(double percentile) {
            return percentile(latencies, percentile);
        }

        double p99Millis() {
            return percentile(latencies, 99);
        }

        boolean marked() {
            return markNanos != 0;
        }

        double markedAfterSeconds() {
            return (markNanos - startNanos) / 1e9;
        }

        long callsAfterMark() {
            return Arrays.stream(ends).filter(end -> end > markNanos).count();
        }

        double p99AfterMarkMillis() {
            List<Long> after = new ArrayList<>();
            for (int i = 0; i < ends.length; i++) {
                if (ends[i] > markNanos) {
                    after.add(latencies[i]);
                }
            }
            return percentile(after.stream().mapToLong(Long::longValue).toArray(), 99);
        }

        private static double percentile(long[] nanos, double percentile) {
            if (nanos.length == 0) {
                return Double.NaN;
            }
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            return sorted[(int) Math.min(sorted.length - 1, Math.ceil(percentile / 100 * sorted.length) - 1)] / 1e6;
        }
    }

    /** Records the calls of one load. Thread-safe. */
    private static final class Recorder {
        final List<long[]> samples = new ArrayList<>();
        final Map<String, Long> failures = new LinkedHashMap<>();
        final AtomicLong calls = new AtomicLong();

        void call(Greeter greeter) {
            calls.incrementAndGet();
            long started = System.nanoTime();
            try {
                greeter.greet("ada");
                long ended = System.nanoTime();
                synchronized (this) {
                    samples.add(new long[] {ended - started, ended});
                }
            } catch (RpcException e) {
                String kind = e.isNotProcessed() ? "busy" : e.isTimeout() ? "timeout" : "other";
                String message = String.valueOf(e.getMessage());
                String key = kind + (message.contains("retry budget spent") ? " (retry budget spent)" : "");
                synchronized (this) {
                    failures.merge(key, 1L, Long::sum);
                }
            }
        }

        synchronized Outcome outcome(double seconds, long markNanos, long startNanos) {
            long[] latencies = samples.stream().mapToLong(s -> s[0]).toArray();
            long[] ends = samples.stream().mapToLong(s -> s[1]).toArray();
            return new Outcome(calls.get(), samples.size(), failures, latencies, ends, seconds, markNanos, startNanos);
        }
    }

    private static Outcome closedLoop(Greeter greeter, int callers, int seconds) throws InterruptedException {
        return closedLoop(greeter, callers, seconds, () -> false);
    }

    /** {@code callers} threads calling back to back for {@code seconds}; {@code mark} is polled and its first true time kept. */
    private static Outcome closedLoop(Greeter greeter, int callers, int seconds, java.util.function.BooleanSupplier mark)
            throws InterruptedException {
        Recorder recorder = new Recorder();
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        for (int i = 0; i < callers; i++) {
            pool.execute(() -> {
                while (System.nanoTime() < end) {
                    recorder.call(greeter);
                }
            });
        }
        long marked = 0;
        while (System.nanoTime() < end) {
            if (marked == 0 && mark.getAsBoolean()) {
                marked = System.nanoTime();
            }
            Thread.sleep(10);
        }
        pool.shutdown();
        if (!pool.awaitTermination(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("callers did not stop");
        }
        return recorder.outcome((System.nanoTime() - start) / 1e9, marked, start);
    }

    /** Calls started at {@code perSecond} for {@code seconds}, whatever the answers (up to 512 at once). */
    private static Outcome openLoop(Greeter greeter, double perSecond, int seconds) throws InterruptedException {
        Recorder recorder = new Recorder();
        ExecutorService pool = Executors.newFixedThreadPool(512);
        RateLimiter rate = RateLimiter.create(perSecond);
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end) {
            rate.acquire();
            pool.execute(() -> recorder.call(greeter));
        }
        pool.shutdown();
        if (!pool.awaitTermination(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("callers did not stop");
        }
        return recorder.outcome((System.nanoTime() - start) / 1e9, 0, start);
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "n/a";
        }
    }

    @Override
    public String toString() {
        return providers.stream().map(Object::toString).collect(Collectors.joining(", "));
    }
}
