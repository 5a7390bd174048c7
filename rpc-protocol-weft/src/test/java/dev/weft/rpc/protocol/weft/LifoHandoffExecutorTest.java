package dev.weft.rpc.protocol.weft;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static dev.weft.rpc.protocol.weft.FaultTest.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The provider's business executor: LIFO reuse of idle threads, a bounded queue, immediate rejection. */
class LifoHandoffExecutorTest {

    private LifoHandoffExecutor executor;

    private LifoHandoffExecutor executor(int threads, int queue, long keepAliveMillis) {
        executor = new LifoHandoffExecutor(threads, queue, keepAliveMillis, TimeUnit.MILLISECONDS,
                new ThreadFactoryBuilder().setNameFormat("lifo-test-%d").setDaemon(true).build());
        return executor;
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (executor != null) {
            executor.shutdownNow();
            assertThat(executor.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static void runAndRecord(LifoHandoffExecutor executor, List<String> threads) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        executor.execute(() -> {
            threads.add(Thread.currentThread().getName());
            done.countDown();
        });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void sequentialTasks_reuseOneThread_insteadOfStartingMore() throws Exception {
        LifoHandoffExecutor executor = executor(8, 8, 60_000);
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
        LifoHandoffExecutor executor = executor(4, 4, 60_000);
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
    void busyThreadsAndFullQueue_rejectAtOnce_queuedTasksRunInOrder() throws Exception {
        LifoHandoffExecutor executor = executor(1, 2, 60_000);
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
    void idleThreads_endAfterKeepAlive_andNewTasksStartOneAgain() throws Exception {
        LifoHandoffExecutor executor = executor(2, 2, 50);
        List<String> threads = new CopyOnWriteArrayList<>();
        runAndRecord(executor, threads);
        awaitTrue(() -> executor.threadCount() == 0);
        runAndRecord(executor, threads);
        assertThat(threads).hasSize(2).doesNotHaveDuplicates();
    }

    @Test
    void manyProducers_everyAcceptedTaskRunsExactlyOnce_evenWithThreadsTimingOut() throws Exception {
        LifoHandoffExecutor executor = executor(3, 16, 1);
        int producers = 8;
        int tasksEach = 3_000;
        AtomicInteger accepted = new AtomicInteger();
        AtomicInteger rejected = new AtomicInteger();
        Set<Integer> ran = ConcurrentHashMap.newKeySet();
        AtomicInteger duplicates = new AtomicInteger();
        ExecutorService submitters = Executors.newFixedThreadPool(producers);
        try {
            List<Future<?>> futures = new CopyOnWriteArrayList<>();
            for (int p = 0; p < producers; p++) {
                int base = p * tasksEach;
                futures.add(submitters.submit(() -> {
                    for (int i = 0; i < tasksEach; i++) {
                        int id = base + i;
                        try {
                            executor.execute(() -> {
                                if (!ran.add(id)) {
                                    duplicates.incrementAndGet();
                                }
                            });
                            accepted.incrementAndGet();
                        } catch (RejectedExecutionException e) {
                            rejected.incrementAndGet();
                        }
                        if (i % 500 == 0) {
                            Thread.yield();
                        }
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            submitters.shutdownNow();
        }
        assertThat(accepted.get() + rejected.get()).isEqualTo(producers * tasksEach);
        awaitTrue(() -> ran.size() == accepted.get());
        assertThat(duplicates.get()).isZero();
        assertThat(executor.threadCount()).isLessThanOrEqualTo(3);
    }

    @Test
    void tasksThatThrowOrLeaveTheirThreadInterrupted_doNotStopLaterTasks() throws Exception {
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        executor = new LifoHandoffExecutor(2, 64, 60_000, TimeUnit.MILLISECONDS, new ThreadFactoryBuilder()
                .setNameFormat("lifo-test-%d").setDaemon(true)
                .setUncaughtExceptionHandler((t, e) -> uncaught.add(e)).build());
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 40; i++) {
            int n = i;
            executor.execute(() -> {
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
    }

    @Test
    void shutdownNow_rejectsNewTasks_andEndsEveryThread() throws Exception {
        LifoHandoffExecutor executor = executor(2, 2, 60_000);
        CountDownLatch started = new CountDownLatch(1);
        executor.execute(() -> {
            started.countDown();
            await(new CountDownLatch(1));
        });
        runAndRecord(executor, new CopyOnWriteArrayList<>());
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        executor.shutdownNow();

        assertThat(executor.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        assertThat(executor.threadCount()).isZero();
        assertThatThrownBy(() -> executor.execute(() -> { }))
                .isInstanceOf(RejectedExecutionException.class).hasMessage("executor: shut down");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
