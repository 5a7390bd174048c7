package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import static dev.weft.rpc.cluster.TestClusters.consumer;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * 8 threads x 100k calls through failover + roundrobin, 10% injected network failures and a
 * directory whose membership changes under load: every call ends in exactly one success or one
 * exception, and no call reaches providers more than retries + 1 times.
 */
class FailoverStressTest {

    private static final int THREADS = 8;
    private static final int CALLS_PER_THREAD = 100_000;
    private static final int RETRIES = 2;

    /** Per calling thread: provider attempts and successes of the current call. */
    private static final ThreadLocal<int[]> CURRENT = ThreadLocal.withInitial(() -> new int[2]);

    @Test
    void failover_underChurnAndFailures_endsEveryCallExactlyOnce_withinTheRetriesAllowed() throws Exception {
        List<Invoker<Greeting>> pool = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            pool.add(flaky("10.0.1." + i));
        }
        DynamicDirectory<Greeting> directory = new DynamicDirectory<>(Greeting.class,
                consumer("loadbalance=roundrobin&retries=" + RETRIES));
        directory.setInvokers(pool);

        try (ExtensionDirector director = new ExtensionDirector(FailoverStressTest.class.getClassLoader())) {
            Invoker<Greeting> invoker = director.getExtensionLoader(Cluster.class).getAdaptiveExtension().join(directory);
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong membershipChanges = new AtomicLong();
            Thread churn = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(42);
                while (running.get()) {
                    List<Invoker<Greeting>> members = new ArrayList<>();
                    for (Invoker<Greeting> candidate : pool) {
                        if (random.nextInt(3) > 0) {
                            members.add(candidate);
                        }
                    }
                    if (members.size() < 2) {
                        members = pool.subList(0, 3);
                    }
                    directory.setInvokers(members);
                    membershipChanges.incrementAndGet();
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "stress-churn");
            churn.start();

            LongAdder successes = new LongAdder();
            LongAdder failures = new LongAdder();
            LongAdder attempts = new LongAdder();
            LongAdder violations = new LongAdder();
            ExecutorService callers = Executors.newFixedThreadPool(THREADS);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                done.add(callers.submit(() -> {
                    start.await();
                    Invocation invocation = hello();
                    int[] current = CURRENT.get();
                    for (int i = 0; i < CALLS_PER_THREAD; i++) {
                        current[0] = 0;
                        current[1] = 0;
                        boolean ok;
                        try {
                            Result result = invoker.invoke(invocation);
                            ok = result.getValue() != null;
                        } catch (RpcException e) {
                            ok = false;
                            if (!e.isNetwork()) {
                                violations.increment();
                            }
                        }
                        attempts.add(current[0]);
                        if (ok) {
                            successes.increment();
                        } else {
                            failures.increment();
                        }
                        if (current[0] > RETRIES + 1 || current[1] != (ok ? 1 : 0)) {
                            violations.increment();
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : done) {
                future.get(60, TimeUnit.SECONDS);
            }
            running.set(false);
            churn.join();
            callers.shutdown();

            long providerCalls = pool.stream().mapToLong(i -> ((FakeProvider<?>) i).calls()).sum();
            assertThat(successes.sum() + failures.sum()).isEqualTo((long) THREADS * CALLS_PER_THREAD);
            assertThat(violations.sum()).isZero();
            assertThat(attempts.sum()).isEqualTo(providerCalls);
            assertThat(failures.sum()).as("~0.1%% of calls fail 3 times in a row").isLessThan(THREADS * CALLS_PER_THREAD / 100);
            assertThat(membershipChanges.get()).isGreaterThan(10);
        }
    }

    /** A provider failing every 10th call with a network error, recording attempts per calling thread. */
    private static FakeProvider<Greeting> flaky(String host) {
        AtomicLong calls = new AtomicLong();
        Reply answerHost = Reply.providerName();
        Reply networkError = Reply.networkError();
        return FakeProvider.of(Greeting.class, host).answering((invocation, provider) -> {
            int[] current = CURRENT.get();
            current[0]++;
            if (calls.incrementAndGet() % 10 == 0) {
                return networkError.reply(invocation, provider);
            }
            current[1]++;
            return answerHost.reply(invocation, provider);
        });
    }
}
