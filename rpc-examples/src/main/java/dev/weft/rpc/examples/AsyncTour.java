package dev.weft.rpc.examples;

import com.google.common.base.Preconditions;
import dev.weft.rpc.bootstrap.Weft;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * The tour's async scenario: {@link AsyncGreetingService} (a {@code CompletableFuture} method) served
 * by one {@link ScheduledGreetings} per provider spec on {@code weft://127.0.0.1} with
 * {@value #PROVIDER_THREADS} business threads each ({@code queues} and {@code connection-calls} raised to
 * {@value #CALLS}, so the burst waits for a thread rather than being answered "busy" and retried
 * elsewhere), called through {@code Weft.refer} three ways:
 * <ol>
 *   <li>{@value #CALLS} calls sent from one thread without waiting (round robin), then their answers;</li>
 *   <li>a call the provider never answers, cancelled by its caller: the cancel reaches the provider's
 *       future and the call is not retried;</li>
 *   <li>a call every provider answers too late, under {@value #TIMEOUT_PARAMETERS}: one budget over
 *       every failover attempt.</li>
 * </ol>
 * The retry budget is off ({@code retry-budget=1}), as in the rest of the tour, so the counts are
 * exact. Every wait is bounded. {@link #close()} closes the consumers, the providers and the timer.
 * Not thread-safe: the tour's thread runs it.
 */
final class AsyncTour implements AutoCloseable {

    /** Calls kept in flight from one thread: twice the default providers' weights (550), so round robin picks them in proportion. */
    static final int CALLS = 1100;
    /** What each in-flight call waits at its provider, on top of the provider's latency: long enough to overlap. */
    static final long WORK_MILLIS = 100;
    static final int PROVIDER_THREADS = 4;
    /** The consumer of the third demonstration: 300 ms per attempt, 500 ms for the whole call. */
    static final String TIMEOUT_PARAMETERS = "retries=2&timeout=300&call-timeout=500";
    private static final String COMMON = "loadbalance=roundrobin&lazy=true&check=false&retry-budget=1";
    private static final long WAIT_SECONDS = 30;

    private final ScheduledExecutorService timer;
    private final Weft providerWeft;
    private final Weft consumerWeft;
    private final Map<String, ScheduledGreetings> providers;
    private final String directUrls;

    private AsyncTour(ScheduledExecutorService timer, Weft providerWeft, Weft consumerWeft,
                      Map<String, ScheduledGreetings> providers, String directUrls) {
        this.timer = timer;
        this.providerWeft = providerWeft;
        this.consumerWeft = consumerWeft;
        this.providers = providers;
        this.directUrls = directUrls;
    }

    /** Exports one provider per spec (no registry) and prepares the consumers' {@link Weft}. */
    static AsyncTour start(List<ProviderSpec> specs) {
        Preconditions.checkArgument(!specs.isEmpty(), "specs: none (expected: at least one provider)");
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "playground-async-timer");
            thread.setDaemon(true);
            return thread;
        });
        Weft providerWeft = Weft.builder().application("playground-async").build();
        try {
            Map<String, ScheduledGreetings> providers = new LinkedHashMap<>();
            List<String> urls = new ArrayList<>();
            for (ProviderSpec spec : specs) {
                ScheduledGreetings impl = new ScheduledGreetings(spec.name(),
                        spec.latencyNanos() + TimeUnit.MILLISECONDS.toNanos(WORK_MILLIS), timer);
                int port = providerWeft.export(AsyncGreetingService.class, impl, "weft://127.0.0.1:0?threads="
                        + PROVIDER_THREADS + "&queues=" + CALLS + "&connection-calls=" + CALLS).getInvoker().getUrl().getPort();
                providers.put(spec.name(), impl);
                urls.add("weft://127.0.0.1:" + port + "/" + AsyncGreetingService.class.getName() + "?weight=" + spec.weight());
            }
            Weft consumerWeft = Weft.builder().application("playground-async").build();
            return new AsyncTour(timer, providerWeft, consumerWeft, providers, String.join(",", urls));
        } catch (RuntimeException e) {
            providerWeft.close();
            timer.shutdownNow();
            throw e;
        }
    }

    /**
     * What the scenario saw.
     *
     * @param calls              calls sent from one thread
     * @param sendMillis         how long sending them took (the caller never waited for an answer)
     * @param answeredBy         answers per provider, in spec order
     * @param failed             calls among them that failed
     * @param mostFrequentFailure the most frequent of their failures with its count, or empty when none failed
     * @param mostHeld           the most calls one provider held unanswered at once
     * @param cancelledAtCaller  whether {@code cancel(true)} cancelled the caller's future
     * @param cancelledAtProvider whether the provider's future of that call was cancelled too
     * @param cancelRuns         how often the cancelled call ran at a provider (1: not retried)
     * @param timeoutFailure     how the late call failed, e.g. {@code RpcException(TIMEOUT)}
     * @param timeoutMillis      how long the late call took to fail
     * @param timeoutAttempts    attempts of the late call that reached a provider
     */
    record Report(int calls, long sendMillis, Map<String, Long> answeredBy, long failed, String mostFrequentFailure,
                  int mostHeld,
                  boolean cancelledAtCaller, boolean cancelledAtProvider, int cancelRuns, String timeoutFailure,
                  long timeoutMillis, int timeoutAttempts) {

        Report {
            answeredBy = Map.copyOf(new LinkedHashMap<>(answeredBy));
        }

        /** The scenario as terminal text, a header and three lines. */
        String render(List<String> providerOrder) {
            String split = providerOrder.stream().map(p -> p + " " + answeredBy.getOrDefault(p, 0L))
                    .collect(Collectors.joining(", "));
            long answered = answeredBy.values().stream().mapToLong(Long::longValue).sum();
            return String.format(Locale.ROOT, "async calls (CompletableFuture<String> greet, one caller thread):%n"
                            + "  in flight: %d calls sent in %d ms without waiting; answered %d (%s), failed %d;"
                            + " one provider with %d business threads held up to %d at once%n"
                            + "  cancel:    cancel(true) %s the caller's future; the provider's future %s; runs of the call: %d%n"
                            + "  %s: %s after %d ms, %d attempt(s) (without call-timeout: 3 x 300 ms)%n",
                    calls, sendMillis, answered, split, failed, PROVIDER_THREADS, mostHeld,
                    cancelledAtCaller ? "cancelled" : "did not cancel",
                    cancelledAtProvider ? "cancelled too" : "NOT cancelled", cancelRuns,
                    TIMEOUT_PARAMETERS, timeoutFailure, timeoutMillis, timeoutAttempts)
                    + (mostFrequentFailure.isEmpty() ? "" : String.format(Locale.ROOT,
                            "  most frequent failure of the calls in flight: %s%n", mostFrequentFailure));
        }
    }

    /**
     * Runs the three demonstrations.
     *
     * @throws InterruptedException when interrupted while waiting for answers
     * @throws IllegalStateException when an answer or a cancellation does not come within its bound
     */
    Report run() throws InterruptedException {
        // 1. many calls in flight from this thread
        AsyncGreetingService service = refer("timeout=30000");
        long started = System.nanoTime();
        List<CompletableFuture<String>> futures = new ArrayList<>(CALLS);
        for (int i = 0; i < CALLS; i++) {
            futures.add(service.greet("async-" + i));
        }
        long sendMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        Map<String, Long> answeredBy = new LinkedHashMap<>();
        providers.keySet().forEach(name -> answeredBy.put(name, 0L));
        long failed = 0;
        CallTally failures = new CallTally(CALLS);
        for (int i = 0; i < CALLS; i++) {
            String name = "async-" + i;
            try {
                String answer = futures.get(i).get(WAIT_SECONDS, TimeUnit.SECONDS);
                if (GreetingServiceImpl.isProviderAnswer(name, answer)) {
                    answeredBy.merge(answer.substring(name.length() + 1), 1L, Long::sum);
                }
            } catch (ExecutionException e) {
                failed++;
                failures.error(e.getCause());
            } catch (TimeoutException e) {
                throw new IllegalStateException("async call " + name + ": no answer in " + WAIT_SECONDS + " s", e);
            }
        }
        int mostHeld = providers.values().stream().mapToInt(ScheduledGreetings::mostPending).max().orElse(0);

        // 2. a call its provider never answers, cancelled by the caller
        AsyncGreetingService retrying = refer("timeout=20000&retries=3");
        int runsBefore = runs();
        int cancelledBefore = cancelled();
        CompletableFuture<String> held = retrying.greet(ScheduledGreetings.HOLD + "1");
        await(() -> runs() > runsBefore, "the held call to reach a provider");
        boolean cancelledAtCaller = held.cancel(true);
        boolean cancelledAtProvider = within(() -> cancelled() > cancelledBefore);
        int cancelRuns = runs() - runsBefore;

        // 3. a call every provider answers too late: one budget over every failover attempt
        AsyncGreetingService late = refer(TIMEOUT_PARAMETERS);
        int lateBefore = runs();
        long lateStarted = System.nanoTime();
        String failure;
        try {
            late.greet(ScheduledGreetings.SLOW + "1").get(WAIT_SECONDS, TimeUnit.SECONDS);
            failure = "answered";
        } catch (ExecutionException e) {
            failure = CallTally.kindOf(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("call-timeout: the late call did not fail in " + WAIT_SECONDS + " s", e);
        }
        long lateMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lateStarted);
        int lateAttempts = runs() - lateBefore;
        ScenarioResult.TopError top = failures.topError();
        String mostFrequentFailure = top == null ? "" : top.count() + " x " + top.kind() + ", the first: " + top.sample();
        return new Report(CALLS, sendMillis, answeredBy, failed, mostFrequentFailure, mostHeld, cancelledAtCaller, cancelledAtProvider,
                cancelRuns, failure, lateMillis, lateAttempts);
    }

    /** The provider names, in spec order. */
    List<String> providerNames() {
        return List.copyOf(providers.keySet());
    }

    private AsyncGreetingService refer(String parameters) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String pair : (COMMON + "&" + parameters).split("&")) {
            int eq = pair.indexOf('=');
            map.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        map.put(Playground.DIRECT_URLS_KEY, directUrls);
        return consumerWeft.refer(AsyncGreetingService.class, map);
    }

    private int runs() {
        return providers.values().stream().mapToInt(ScheduledGreetings::runs).sum();
    }

    private int cancelled() {
        return providers.values().stream().mapToInt(ScheduledGreetings::cancelled).sum();
    }

    /** Whether {@code condition} holds within {@link #WAIT_SECONDS}, checked every 5 ms. */
    private static boolean within(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        if (!within(condition)) {
            throw new IllegalStateException("async tour: waited " + WAIT_SECONDS + " s for " + what);
        }
    }

    @Override
    public void close() {
        consumerWeft.close();
        providerWeft.close();
        timer.shutdownNow();
    }
}
