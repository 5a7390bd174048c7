package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.testing.FakeTicker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adaptive limit alone, on a fake clock: a simulated provider that runs 4 calls at once, 5 ms
 * each (calls beyond 4 wait their turn), offered more calls than it can take; in the rounds the
 * limit sees every call, behind an executor it sees only the calls a thread took.
 */
class AdaptiveLimitTest {

    private static final int CORES = 4;
    private static final Duration SERVICE_TIME = Duration.ofMillis(5);

    private final FakeTicker ticker = new FakeTicker();
    private final AdaptiveLimit limit = new AdaptiveLimit(ticker);

    /**
     * One round: admits as many of {@code offered} calls as the limit allows and runs them 4 at a
     * time in admission order: the first 4 end after 5 ms, the next 4 after 10 ms, and so on.
     *
     * @return the calls admitted
     */
    private int round(int offered) {
        List<AdaptiveLimit.Permit> admitted = new ArrayList<>();
        for (int i = 0; i < offered; i++) {
            limit.tryAcquire().ifPresent(admitted::add);
        }
        for (int wave = 0; wave * CORES < admitted.size(); wave++) {
            ticker.advance(SERVICE_TIME);
            admitted.subList(wave * CORES, Math.min(admitted.size(), (wave + 1) * CORES)).forEach(AdaptiveLimit.Permit::answered);
        }
        return admitted.size();
    }

    @Test
    void sustainedOverload_theLimitSettlesNearTheCapacity_andDoesNotDriftUp() {
        List<Integer> admittedPerRound = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            admittedPerRound.add(round(64)); // offered far more than the 4 cores take
        }

        List<Integer> lastRounds = admittedPerRound.subList(100, 150);
        assertThat(lastRounds).as("enough admitted to keep the 4 cores busy (goodput)").allSatisfy(admitted ->
                assertThat(admitted).isGreaterThanOrEqualTo(CORES));
        assertThat(lastRounds).as("few queued: the admitted calls wait at most two turns (latency <= 3x)").allSatisfy(admitted ->
                assertThat(admitted).isLessThanOrEqualTo(3 * CORES));
        assertThat(limit.limit()).isBetween(CORES, 3 * CORES);
    }

    @Test
    void anIdleProvider_doesNotLowerTheLimit_andFastCallsAtTheLimitRaiseIt() {
        for (int i = 0; i < 20; i++) {
            round(2); // app-limited: far below the limit, the latency says nothing about queueing
        }
        assertThat(limit.limit()).isEqualTo(AdaptiveLimit.INITIAL_LIMIT);

        List<AdaptiveLimit.Permit> atTheLimit = new ArrayList<>();
        for (int i = 0; i < AdaptiveLimit.INITIAL_LIMIT; i++) {
            limit.tryAcquire().ifPresent(atTheLimit::add);
        }
        assertThat(atTheLimit).hasSize(AdaptiveLimit.INITIAL_LIMIT);
        assertThat(limit.tryAcquire()).as("one over the limit").isEmpty();
        ticker.advance(SERVICE_TIME); // no slower than the no-load latency: nothing queued
        atTheLimit.forEach(AdaptiveLimit.Permit::answered);

        assertThat(limit.limit()).isGreaterThan(AdaptiveLimit.INITIAL_LIMIT);
    }

    @Test
    void aCallEndingOnTheSameClockReading_isIgnored_andItsPermitReleased() {
        AdaptiveLimit.Permit permit = limit.tryAcquire().orElseThrow();

        permit.answered(); // no time passed: the library refuses a zero latency

        assertThat(limit.inFlight()).isZero();
        assertThat(limit.limit()).isEqualTo(AdaptiveLimit.INITIAL_LIMIT);
        List<AdaptiveLimit.Permit> all = new ArrayList<>();
        for (int i = 0; i < AdaptiveLimit.INITIAL_LIMIT; i++) {
            limit.tryAcquire().ifPresent(all::add);
        }
        assertThat(all).as("every permit available again").hasSize(AdaptiveLimit.INITIAL_LIMIT);
    }

    /** Business threads of the simulated server, as a weft server's executor has. */
    private static final int THREADS = 32;

    /** A received call: when, and its permit once admitted. */
    private static final class Call {
        final long receivedNanos;
        AdaptiveLimit.Permit permit;

        Call(long receivedNanos) {
            this.receivedNanos = receivedNanos;
        }
    }

    /**
     * Ticks of 5 ms of a server with {@value #THREADS} business threads and a queue for them: every
     * tick the running calls end (answered), admitted calls waiting on a thread take the free cores,
     * {@code offeredPerTick} calls arrive, and free threads take queued calls in order. A call is
     * admitted under the limit either as it arrives ({@code onReceipt}: a refused one never queues)
     * or when a thread takes it (a refused one costs the thread nothing: it takes the next); an
     * admitted call holds its thread while it waits for one of the 4 cores and runs.
     *
     * @return the latency since receipt of each answered call of the last {@code measured} ticks, in ticks
     */
    private List<Long> server(boolean onReceipt, int ticks, int offeredPerTick, int measured, List<Integer> answeredPerTick) {
        Deque<Call> queue = new ArrayDeque<>();
        Deque<Call> onThreads = new ArrayDeque<>(); // holding a thread, waiting for a core
        List<Call> running = new ArrayList<>();
        List<Long> latencies = new ArrayList<>();
        long tickNanos = SERVICE_TIME.toNanos();
        for (int tick = 0; tick < ticks; tick++) {
            ticker.advance(SERVICE_TIME);
            long now = ticker.read();
            for (Call ended : running) {
                ended.permit.answered();
                if (tick >= ticks - measured) {
                    latencies.add((now - ended.receivedNanos) / tickNanos);
                }
            }
            if (tick >= ticks - measured) {
                answeredPerTick.add(running.size());
            }
            running.clear();
            for (int i = 0; i < offeredPerTick; i++) {
                Call call = new Call(now);
                if (onReceipt) {
                    limit.tryAcquire().ifPresent(permit -> {
                        call.permit = permit;
                        queue.add(call);
                    });
                } else {
                    queue.add(call);
                }
            }
            while (running.size() < CORES && !onThreads.isEmpty()) {
                running.add(onThreads.poll());
            }
            while (running.size() + onThreads.size() < THREADS && !queue.isEmpty()) {
                Call taken = queue.poll();
                if (taken.permit == null) {
                    taken.permit = limit.tryAcquire().orElse(null);
                }
                if (taken.permit != null) {
                    onThreads.add(taken);
                }
            }
            while (running.size() < CORES && !onThreads.isEmpty()) {
                running.add(onThreads.poll());
            }
        }
        return latencies;
    }

    /** Rounds of calls all admitted at once and all answered at the no-load latency, until the limit is at least {@code target}. */
    private void raiseTheLimitTo(int target) {
        for (int i = 0; i < 100 && limit.limit() < target; i++) {
            List<AdaptiveLimit.Permit> admitted = new ArrayList<>();
            while (admitted.size() < limit.limit()) {
                limit.tryAcquire().ifPresent(admitted::add);
            }
            ticker.advance(SERVICE_TIME);
            admitted.forEach(AdaptiveLimit.Permit::answered);
        }
        assertThat(limit.limit()).isGreaterThanOrEqualTo(target);
    }

    @Test
    void admittedOnReceipt_aLimitRaisedAboveTwiceTheThreads_comesDown_andBoundsTheWait() {
        raiseTheLimitTo(2 * THREADS + 1); // a quiet start

        List<Integer> answeredPerTick = new ArrayList<>();
        List<Long> latencies = server(true, 400, 3 * CORES, 100, answeredPerTick);

        assertThat(limit.limit()).as("near the 4 cores, far below the threads").isBetween(CORES, 3 * CORES);
        assertThat(latencies).as("admitted calls wait at most two turns since receipt (latency <= 3x)")
                .allSatisfy(ticks -> assertThat(ticks).isLessThanOrEqualTo(3));
        double goodput = answeredPerTick.stream().mapToInt(Integer::intValue).average().orElse(0);
        assertThat(goodput).as("answers per tick, of %s cores", CORES).isGreaterThanOrEqualTo(0.9 * CORES);
    }

    @Test
    void admittedBehindTheQueue_aLimitRaisedAboveTwiceTheThreads_neverComesDown_whileTheQueueGrows() {
        // why the weft server admits on receipt: behind the queue at most THREADS calls are in flight
        // at the limit, which Vegas reads as an idle provider, and their latency leaves out the queue
        raiseTheLimitTo(2 * THREADS + 1);
        int raised = limit.limit();

        List<Long> latencies = server(false, 200, 3 * CORES, 50, new ArrayList<>());

        assertThat(limit.limit()).isEqualTo(raised);
        assertThat(latencies.get(latencies.size() - 1)).as("ticks the last answered call waited: the queue keeps growing").isGreaterThan(100L);
    }
}
