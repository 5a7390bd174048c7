package dev.weft.rpc.protocol.weft;

import com.google.common.base.Ticker;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import com.google.common.util.concurrent.Uninterruptibles;
import dev.weft.rpc.testing.FakeTicker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntPredicate;

import static dev.weft.rpc.protocol.weft.FaultTest.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The provider's business executor: about {@code runningTarget} awake workers fed by a bounded
 * queue, LIFO reuse of idle workers, growth when queued tasks wait because workers block, and
 * immediate rejection when threads and queue are full.
 */
class QueueFirstExecutorTest {

    private String threadPrefix;
    private QueueFirstExecutor executor;
    /** What reached the threads' uncaught exception handler, unless a test installs its own. */
    private final List<Throwable> unexpected = new CopyOnWriteArrayList<>();

    @BeforeEach
    void name(TestInfo test) {
        threadPrefix = "qf-" + test.getTestMethod().orElseThrow().getName();
    }

    /**
     * A fake ticker that starts an hour in, as {@code System.nanoTime()} starts anywhere: a reading
     * of 0 would hide a difference of readings computed the wrong way round.
     */
    private static FakeTicker fakeTicker() {
        return new FakeTicker().set(TimeUnit.HOURS.toNanos(1));
    }

    private QueueFirstExecutor executor(int target, int threads, int queue, Duration keepAlive) {
        return executor(target, threads, queue, keepAlive, Ticker.systemTicker(), (t, e) -> unexpected.add(e));
    }

    private QueueFirstExecutor executor(int target, int threads, int queue, Duration keepAlive, Ticker ticker,
                                        Thread.UncaughtExceptionHandler handler) {
        ThreadFactory workers = new ThreadFactoryBuilder().setNameFormat(threadPrefix + "-%d").setDaemon(true)
                .setUncaughtExceptionHandler(handler).build();
        ThreadFactory watchdog = new ThreadFactoryBuilder().setNameFormat(threadPrefix + "-watchdog").setDaemon(true)
                .setUncaughtExceptionHandler((t, e) -> unexpected.add(e)).build();
        executor = new QueueFirstExecutor(target, threads, queue, keepAlive, ticker, workers, watchdog);
        return executor;
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (executor != null) {
            executor.shutdownNow();
            assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(unexpected).isEmpty();
    }

    private static void runAndRecord(QueueFirstExecutor executor, List<String> threads) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        executor.execute(() -> {
            threads.add(Thread.currentThread().getName());
            done.countDown();
        });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void sequentialTasks_reuseOneThread_insteadOfStartingMore() throws Exception {
        QueueFirstExecutor executor = executor(4, 8, 8, Duration.ofMinutes(1));
        List<String> threads = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 20; i++) {
            runAndRecord(executor, threads);
            awaitTrue(() -> executor.idleThreads() == executor.threadCount());
        }
        assertThat(threads).hasSize(20);
        assertThat(Set.copyOf(threads)).hasSize(1);
        assertThat(executor.threadCount()).isEqualTo(1);
    }

    @Test
    void twoIdleThreads_theMostRecentlyIdleTakesTheNextTask() throws Exception {
        QueueFirstExecutor executor = executor(2, 4, 4, Duration.ofMinutes(1));
        CountDownLatch releaseFirst = new CountDownLatch(1);
        CountDownLatch releaseSecond = new CountDownLatch(1);
        AtomicReference<String> first = new AtomicReference<>();
        AtomicReference<String> second = new AtomicReference<>();
        executor.execute(() -> {
            first.set(Thread.currentThread().getName());
            await(releaseFirst);
        });
        executor.execute(() -> {
            second.set(Thread.currentThread().getName());
            await(releaseSecond);
        });
        awaitTrue(() -> first.get() != null && second.get() != null);
        assertThat(first.get()).isNotEqualTo(second.get());
        releaseFirst.countDown();
        awaitTrue(() -> executor.idleThreads() == 1);
        releaseSecond.countDown();
        awaitTrue(() -> executor.idleThreads() == 2);

        List<String> next = new CopyOnWriteArrayList<>();
        runAndRecord(executor, next);
        assertThat(next).containsExactly(second.get());
        awaitTrue(() -> executor.idleThreads() == 2);
        runAndRecord(executor, next);
        assertThat(next).containsExactly(second.get(), second.get());
    }

    @Test
    void cpuBoundCallsFromManyCallers_runOnAboutTargetThreads_notOnePerCaller() throws Exception {
        int target = 2;
        // A frozen clock keeps the watchdog out: on a test machine starved of CPU by other
        // processes, queued calls can wait longer than the stall interval, and growth is then meant.
        QueueFirstExecutor executor = executor(target, 64, 64, Duration.ofMinutes(1), fakeTicker(),
                (t, e) -> unexpected.add(e));
        int callers = 32;
        int callsEach = 200;
        Set<String> workerNames = ConcurrentHashMap.newKeySet();
        LongAdder completed = new LongAdder();
        ExecutorService callerPool = Executors.newFixedThreadPool(callers);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int c = 0; c < callers; c++) {
                long seed = c;
                // each caller waits for its call before making the next, as an RPC consumer thread does
                futures.add(callerPool.submit(() -> {
                    for (int i = 0; i < callsEach; i++) {
                        long input = seed * callsEach + i;
                        CompletableFuture<Long> result = new CompletableFuture<>();
                        executor.execute(() -> {
                            workerNames.add(Thread.currentThread().getName());
                            result.complete(spin(input));
                        });
                        assertThat(result.get(30, TimeUnit.SECONDS)).isNotEqualTo(input);
                        completed.increment();
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            callerPool.shutdownNow();
        }
        assertThat(completed.sum()).isEqualTo((long) callers * callsEach);
        // A thread per concurrent call would be 32. A call that arrives just as a worker looks at
        // the queue once more before parking may start one more thread; they are not more.
        assertThat(workerNames).hasSizeLessThanOrEqualTo(target + 2);
        assertThat(executor.threadCount()).isLessThanOrEqualTo(target + 2);
    }

    /** Some microseconds of arithmetic whose result depends on every step. */
    private static long spin(long input) {
        long x = input;
        for (int i = 0; i < 20_000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    @Test
    void blockedWorkers_queuedTasksAllStart_withoutFurtherSubmissions() throws Exception {
        QueueFirstExecutor executor = executor(1, 50, 50, Duration.ofMinutes(1));
        int tasks = 20;
        CountDownLatch started = new CountDownLatch(tasks);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(tasks);
        for (int i = 0; i < tasks; i++) {
            executor.execute(() -> {
                started.countDown();
                await(release);
                finished.countDown();
            });
        }
        // with one awake worker and nothing more submitted, only the watchdog can start the other 19
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        // a thread each; on a loaded machine the watchdog may add one spare racing the last start
        assertThat(executor.threadCount()).isBetween(tasks, tasks + 1);
        assertThat(executor.queued()).isZero();

        release.countDown();
        assertThat(finished.await(10, TimeUnit.SECONDS)).isTrue();
        awaitTrue(() -> executor.idleThreads() == executor.threadCount());
    }

    @Test
    void blockedWorkers_growOnlyOnceTheOldestQueuedTaskHasWaitedTheStallInterval() throws Exception {
        FakeTicker ticker = fakeTicker();
        QueueFirstExecutor executor = executor(1, 10, 10, Duration.ofMinutes(1), ticker, (t, e) -> unexpected.add(e));
        List<String> started = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        executor.execute(blocking("a", started, release));
        awaitTrue(() -> started.contains("a"));
        executor.execute(blocking("b", started, release));

        Thread.sleep(100); // many real intervals, but on the ticker "b" has waited nothing yet
        assertThat(started).containsExactly("a");
        assertThat(executor.threadCount()).isEqualTo(1);

        ticker.advance(QueueFirstExecutor.STALL_INTERVAL.minusNanos(1));
        executor.execute(blocking("c", started, release));
        Thread.sleep(100);
        assertThat(started).containsExactly("a");

        ticker.advance(Duration.ofNanos(1));
        awaitTrue(() -> started.size() == 2);
        Thread.sleep(100); // "c" has waited 1 ns: no more workers for it
        assertThat(started).containsExactly("a", "b");
        assertThat(executor.queued()).isEqualTo(1);

        ticker.advance(QueueFirstExecutor.STALL_INTERVAL);
        awaitTrue(() -> started.size() == 3);
        assertThat(started).containsExactly("a", "b", "c");
        // a thread each; on a loaded machine the watchdog may add one spare racing the last start
        assertThat(executor.threadCount()).isBetween(3, 4);
        release.countDown();
    }

    private static Runnable blocking(String name, List<String> started, CountDownLatch release) {
        return () -> {
            started.add(name);
            await(release);
        };
    }

    @Test
    void workersAddedForAStall_goIdleOnceTheQueueKeepsUp_leavingTheTargetToDrainIt() throws Exception {
        FakeTicker ticker = fakeTicker();
        QueueFirstExecutor executor = executor(1, 4, 10, Duration.ofMinutes(1), ticker, (t, e) -> unexpected.add(e));
        List<String> started = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        executor.execute(blocking("a", started, release));
        awaitTrue(() -> started.contains("a"));
        executor.execute(blocking("b", started, release));
        executor.execute(blocking("c", started, release));
        ticker.advance(QueueFirstExecutor.STALL_INTERVAL);
        awaitTrue(() -> started.size() == 3);
        // a thread each; on a loaded machine the watchdog may add one spare racing the last start
        assertThat(executor.threadCount()).isBetween(3, 4);

        // queued now, so on the ticker they have waited nothing: the queue keeps up, and one
        // worker takes them all although each takes long enough for the others to join in
        List<String> ranOn = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 6; i++) {
            executor.execute(() -> {
                ranOn.add(Thread.currentThread().getName());
                sleepUninterruptibly(20);
            });
        }
        release.countDown();
        awaitTrue(() -> ranOn.size() == 6);
        assertThat(Set.copyOf(ranOn)).hasSize(1);
        awaitTrue(() -> executor.idleThreads() == executor.threadCount());
        assertThat(executor.threadCount()).isBetween(3, 4);
    }

    @Test
    void blockedWorkers_growOnlyUpToThreads_theRestStayQueuedUntilOneFrees() throws Exception {
        QueueFirstExecutor executor = executor(1, 4, 50, Duration.ofMinutes(1));
        AtomicInteger started = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(10);
        for (int i = 0; i < 10; i++) {
            executor.execute(() -> {
                started.incrementAndGet();
                await(release);
                finished.countDown();
            });
        }
        awaitTrue(() -> started.get() == 4);
        Thread.sleep(100); // many stall intervals
        assertThat(started.get()).isEqualTo(4);
        assertThat(executor.threadCount()).isEqualTo(4);
        assertThat(executor.queued()).isEqualTo(6);

        release.countDown();
        assertThat(finished.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(started.get()).isEqualTo(10);
    }

    @Test
    void busyThreadsAndFullQueue_rejectAtOnce_queuedTasksRunInOrder() throws Exception {
        QueueFirstExecutor executor = executor(1, 1, 2, Duration.ofMinutes(1));
        CountDownLatch release = new CountDownLatch(1);
        List<Integer> order = new CopyOnWriteArrayList<>();
        executor.execute(() -> await(release));
        executor.execute(() -> order.add(1));
        executor.execute(() -> order.add(2));
        assertThat(executor.queued()).isEqualTo(2);

        assertThatThrownBy(() -> executor.execute(() -> order.add(3)))
                .isInstanceOf(RejectedExecutionException.class)
                .hasMessage("executor: 1 threads busy and 2 tasks queued");

        release.countDown();
        awaitTrue(() -> order.size() == 2);
        assertThat(order).containsExactly(1, 2);
        assertThat(executor.threadCount()).isEqualTo(1);
    }

    @Test
    void fullQueue_letsAnotherThreadTakeTheTask_rejectingOnlyWhenEveryThreadIsBusy() throws Exception {
        QueueFirstExecutor executor = executor(1, 10, 1, Duration.ofMinutes(1));
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        Runnable blocker = () -> {
            started.incrementAndGet();
            await(release);
        };
        // a burst larger than the queue: spare threads take what the queue cannot hold
        for (int i = 0; i < 10; i++) {
            executor.execute(blocker);
        }
        awaitTrue(() -> started.get() == 10);
        executor.execute(blocker);
        assertThat(executor.queued()).isEqualTo(1);

        assertThatThrownBy(() -> executor.execute(blocker))
                .isInstanceOf(RejectedExecutionException.class)
                .hasMessage("executor: 10 threads busy and 1 tasks queued");
        release.countDown();
        awaitTrue(() -> started.get() == 11);
        assertThat(executor.threadCount()).isEqualTo(10);
    }

    @Test
    void idleThreads_endAfterKeepAlive_andNewTasksStartOneAgain() throws Exception {
        QueueFirstExecutor executor = executor(2, 2, 2, Duration.ofMillis(50));
        List<String> threads = new CopyOnWriteArrayList<>();
        runAndRecord(executor, threads);
        awaitTrue(() -> executor.threadCount() == 0);
        runAndRecord(executor, threads);
        assertThat(threads).hasSize(2).doesNotHaveDuplicates();
    }

    @Test
    void manyProducers_everyAcceptedTaskRunsExactlyOnce_evenWithThreadsTimingOut() throws Exception {
        QueueFirstExecutor executor = executor(2, 3, 16, Duration.ofNanos(1_000_000));
        Submitted submitted = submitFromManyThreads(executor, 8, 3_000, id -> false);
        assertThat(submitted.accepted() + submitted.rejected()).isEqualTo(8 * 3_000);
        awaitTrue(() -> submitted.ran().size() == submitted.accepted());
        assertThat(submitted.duplicates()).hasValue(0);
        assertThat(executor.threadCount()).isLessThanOrEqualTo(3);
    }

    @Test
    void stress_mixedShortAndBlockingTasks_fromManyThreads_everyAcceptedTaskRunsExactlyOnce() throws Exception {
        QueueFirstExecutor executor = executor(2, 24, 32, Duration.ofMillis(20));
        Submitted submitted = submitFromManyThreads(executor, 12, 1_500, id -> id % 40 == 0);
        assertThat(submitted.accepted() + submitted.rejected()).isEqualTo(12 * 1_500);
        assertThat(submitted.accepted()).isPositive();
        awaitTrue(() -> submitted.ran().size() == submitted.accepted());
        assertThat(submitted.duplicates()).hasValue(0);
        assertThat(executor.threadCount()).isLessThanOrEqualTo(24);
        // workers that ran out of work park and end after keepAlive; no queued task is left behind
        awaitTrue(() -> executor.threadCount() == 0);
        assertThat(executor.queued()).isZero();
    }

    /** What {@link #submitFromManyThreads} saw; {@code ran} and {@code duplicates} go on filling as queued tasks run. */
    private record Submitted(int accepted, int rejected, Set<Integer> ran, AtomicInteger duplicates) {
    }

    /**
     * {@code producers} threads each submit {@code tasksEach} tasks with distinct ids, pausing 1 ms
     * every 100 (so idle workers may time out) and yielding after a rejection; a task whose id
     * {@code blocks} sleeps 3 ms. Returns once every submission was accepted or rejected.
     */
    private static Submitted submitFromManyThreads(QueueFirstExecutor executor, int producers, int tasksEach,
                                                   IntPredicate blocks) throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        AtomicInteger rejected = new AtomicInteger();
        Set<Integer> ran = ConcurrentHashMap.newKeySet();
        AtomicInteger duplicates = new AtomicInteger();
        ExecutorService submitters = Executors.newFixedThreadPool(producers);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int base = p * tasksEach;
                futures.add(submitters.submit(() -> {
                    for (int i = 0; i < tasksEach; i++) {
                        int id = base + i;
                        boolean sleeps = blocks.test(id);
                        try {
                            executor.execute(() -> {
                                if (!ran.add(id)) {
                                    duplicates.incrementAndGet();
                                }
                                if (sleeps) {
                                    sleepUninterruptibly(3);
                                }
                            });
                            accepted.incrementAndGet();
                        } catch (RejectedExecutionException e) {
                            rejected.incrementAndGet();
                            Thread.yield();
                        }
                        if (i % 100 == 0) {
                            sleepUninterruptibly(1);
                        }
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            submitters.shutdownNow();
        }
        return new Submitted(accepted.get(), rejected.get(), ran, duplicates);
    }

    @Test
    void tasksThatThrowOrLeaveTheirThreadInterrupted_doNotStopLaterTasks() throws Exception {
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        QueueFirstExecutor executor = executor(2, 2, 64, Duration.ofMinutes(1), Ticker.systemTicker(),
                (t, e) -> uncaught.add(e));
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger startedInterrupted = new AtomicInteger();
        for (int i = 0; i < 40; i++) {
            int n = i;
            executor.execute(() -> {
                if (Thread.currentThread().isInterrupted()) {
                    startedInterrupted.incrementAndGet();
                }
                ran.incrementAndGet();
                if (n % 3 == 0) {
                    throw new IllegalStateException("task " + n);
                }
                if (n % 3 == 1) {
                    Thread.currentThread().interrupt();
                }
            });
            if (i % 4 == 0) {
                awaitTrue(() -> ran.get() == n + 1);
            }
        }
        awaitTrue(() -> ran.get() == 40);
        awaitTrue(() -> uncaught.size() == 14);
        assertThat(uncaught).allSatisfy(e -> assertThat(e).isInstanceOf(IllegalStateException.class));
        assertThat(startedInterrupted.get()).isZero();
        assertThat(executor.threadCount()).isLessThanOrEqualTo(2);
    }

    @Test
    void shutdownNow_returnsQueuedTasksUnrun_interruptsRunningOnes_andEndsEveryThread() throws Exception {
        QueueFirstExecutor executor = executor(1, 1, 4, Duration.ofMinutes(1));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        AtomicInteger queuedRan = new AtomicInteger();
        executor.execute(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        });
        Runnable first = queuedRan::incrementAndGet;
        Runnable second = queuedRan::incrementAndGet;
        executor.execute(first);
        executor.execute(second);
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(liveThreads()).contains(threadPrefix + "-0", threadPrefix + "-watchdog");

        assertThat(executor.shutdownNow()).containsExactly(first, second);

        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(executor.threadCount()).isZero();
        assertThat(executor.queued()).isZero();
        assertThat(queuedRan.get()).isZero();
        assertThat(liveThreads()).isEmpty();
        assertThatThrownBy(() -> executor.execute(() -> { }))
                .isInstanceOf(RejectedExecutionException.class).hasMessage("executor: shut down");
    }

    @Test
    void removeQueued_takesOutOnlyTheMatchingTasks_unrun_theOthersStillRun() throws Exception {
        QueueFirstExecutor executor = executor(1, 1, 4, Duration.ofMinutes(1));
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        executor.execute(() -> {
            started.countDown();
            Uninterruptibles.awaitUninterruptibly(release, 30, TimeUnit.SECONDS);
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        List<String> ran = new CopyOnWriteArrayList<>();
        Runnable a = () -> ran.add("a");
        Runnable b = () -> ran.add("b");
        Runnable c = () -> ran.add("c");
        executor.execute(a);
        executor.execute(b);
        executor.execute(c);

        assertThat(executor.removeQueued(task -> task == a || task == c)).containsExactly(a, c);
        assertThat(executor.queued()).isEqualTo(1);
        release.countDown();
        awaitTrue(() -> ran.size() == 1 && executor.idleThreads() == 1);
        assertThat(ran).containsExactly("b");
    }

    @Test
    void shutdownNow_endsIdleWorkersAndAParkedWatchdog() throws Exception {
        QueueFirstExecutor executor = executor(2, 4, 4, Duration.ofMinutes(1));
        runAndRecord(executor, new CopyOnWriteArrayList<>());
        awaitTrue(() -> executor.idleThreads() == 1);

        executor.shutdownNow();

        assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(liveThreads()).isEmpty();
    }

    @Test
    void awaitTermination_isFalse_whileATaskIgnoresTheInterrupt() throws Exception {
        QueueFirstExecutor executor = executor(1, 1, 1, Duration.ofMinutes(1));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        executor.execute(() -> {
            started.countDown();
            Uninterruptibles.awaitUninterruptibly(release, 30, TimeUnit.SECONDS);
            Uninterruptibles.sleepUninterruptibly(200, TimeUnit.MILLISECONDS); // still running when awaited
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        executor.shutdownNow();

        assertThat(executor.awaitTermination(100, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(liveThreads()).containsExactly(threadPrefix + "-0");
        release.countDown();
        assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(liveThreads()).isEmpty();
    }

    @Test
    void workersThatEndAfterKeepAlive_leaveTheRunningTargetAsItWas() throws Exception {
        FakeTicker frozen = fakeTicker(); // the watchdog never sees a queued task wait
        QueueFirstExecutor executor = executor(1, 4, 4, Duration.ofMillis(20), frozen, (t, e) -> unexpected.add(e));
        for (int round = 0; round < 3; round++) {
            runAndRecord(executor, new CopyOnWriteArrayList<>());
            awaitTrue(() -> executor.threadCount() == 0);
        }
        List<String> started = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        executor.execute(blocking("a", started, release));
        executor.execute(blocking("b", started, release));
        executor.execute(blocking("c", started, release));

        awaitTrue(() -> started.contains("a"));
        assertThat(executor.queued()).isEqualTo(2);
        assertThat(executor.threadCount()).isEqualTo(1);
        release.countDown();
        awaitTrue(() -> started.size() == 3);
        assertThat(started).containsExactly("a", "b", "c");
    }

    @Test
    void aWorkerThreadThatCannotStart_isReportedByTheWatchdog_andQueuedTasksRunOnceAWorkerFrees() throws Exception {
        List<Throwable> watchdogErrors = new CopyOnWriteArrayList<>();
        AtomicInteger made = new AtomicInteger();
        ThreadFactory oneWorker = runnable -> {
            if (made.incrementAndGet() > 1) {
                throw new IllegalStateException("no thread for you");
            }
            Thread thread = new Thread(runnable, threadPrefix + "-0");
            thread.setDaemon(true);
            return thread;
        };
        ThreadFactory watchdog = new ThreadFactoryBuilder().setNameFormat(threadPrefix + "-watchdog").setDaemon(true)
                .setUncaughtExceptionHandler((t, e) -> watchdogErrors.add(e)).build();
        executor = new QueueFirstExecutor(1, 4, 4, Duration.ofMinutes(1), Ticker.systemTicker(), oneWorker, watchdog);
        List<String> started = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        executor.execute(blocking("a", started, release));
        executor.execute(blocking("b", started, new CountDownLatch(0)));

        awaitTrue(() -> !watchdogErrors.isEmpty());
        assertThat(watchdogErrors.get(0)).isInstanceOf(IllegalStateException.class).hasMessage("no thread for you");
        // threadCount() would not do: the watchdog keeps trying, and counts a thread while it asks for one
        assertThat(liveThreads()).containsExactlyInAnyOrder(threadPrefix + "-0", threadPrefix + "-watchdog");
        assertThat(started).containsExactly("a");

        release.countDown();
        awaitTrue(() -> started.size() == 2);
        assertThat(liveThreads()).containsExactlyInAnyOrder(threadPrefix + "-0", threadPrefix + "-watchdog");
    }

    @Test
    void badSizes_areRejected_naming_theValue() {
        ThreadFactory threads = new ThreadFactoryBuilder().setNameFormat(threadPrefix + "-%d").setDaemon(true).build();
        Ticker ticker = Ticker.systemTicker();
        Duration minute = Duration.ofMinutes(1);
        assertThatThrownBy(() -> new QueueFirstExecutor(0, 4, 4, minute, ticker, threads, threads))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("runningTarget: 0 (expected: > 0)");
        assertThatThrownBy(() -> new QueueFirstExecutor(1, 0, 4, minute, ticker, threads, threads))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("maxThreads: 0 (expected: > 0)");
        assertThatThrownBy(() -> new QueueFirstExecutor(1, 4, 0, minute, ticker, threads, threads))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("queueCapacity: 0 (expected: > 0)");
        assertThatThrownBy(() -> new QueueFirstExecutor(1, 4, 4, Duration.ZERO, ticker, threads, threads))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("keepAlive: PT0S (expected: > 0)");
        assertThat(liveThreads()).isEmpty();
    }

    @Test
    void aRunningTargetAboveMaxThreads_isLoweredToIt() throws Exception {
        QueueFirstExecutor executor = executor(8, 2, 4, Duration.ofMinutes(1));
        List<String> started = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        executor.execute(blocking("a", started, release));
        executor.execute(blocking("b", started, release));
        executor.execute(blocking("c", started, release));
        awaitTrue(() -> started.size() == 2);
        assertThat(executor.queued()).isEqualTo(1);
        assertThat(executor.threadCount()).isEqualTo(2);
        release.countDown();
        awaitTrue(() -> started.size() == 3);
    }

    /** This test's executor threads (workers and watchdog) still alive. */
    private List<String> liveThreads() {
        List<String> names = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.isAlive() && thread.getName().startsWith(threadPrefix + "-")) {
                names.add(thread.getName());
            }
        }
        return names;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleepUninterruptibly(long millis) {
        Uninterruptibles.sleepUninterruptibly(millis, TimeUnit.MILLISECONDS);
    }
}
