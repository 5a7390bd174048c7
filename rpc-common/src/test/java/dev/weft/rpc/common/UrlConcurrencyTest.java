package dev.weft.rpc.common;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class UrlConcurrencyTest {

    private static final int THREADS = 16;
    private static final int ROUNDS = 200;
    private static final int READS_PER_ROUND = 500;

    @Test
    void typedGetters_sharedUrl_manyThreads_seeCorrectValues() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                // A fresh URL per round so threads race on the first parse of every cached value.
                URL shared = URL.valueOf("c://h/svc?timeout=1000&sayHello.timeout=" + round
                        + "&warmup=" + (600_000L + round) + "&sticky=" + (round % 2 == 0) + "&retries=" + (round % 7));
                CountDownLatch start = new CountDownLatch(1);
                AtomicReference<String> firstError = new AtomicReference<>();
                List<Future<Integer>> reads = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    long seed = round * 1_000L + t;
                    int expectedRound = round;
                    reads.add(pool.submit(() -> readMany(shared, expectedRound, new Random(seed), start, firstError)));
                }
                start.countDown();
                int total = 0;
                for (Future<Integer> read : reads) {
                    total += read.get(30, TimeUnit.SECONDS);
                }
                assertThat(firstError.get()).as("round %d", round).isNull();
                assertThat(total).isEqualTo(THREADS * READS_PER_ROUND);
            }
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static int readMany(URL url, int round, Random random, CountDownLatch start,
                                AtomicReference<String> firstError) throws InterruptedException {
        start.await();
        int done = 0;
        for (int i = 0; i < READS_PER_ROUND; i++) {
            String problem = null;
            switch (random.nextInt(6)) {
                case 0:
                    problem = check("timeout", url.getParameter("timeout", 0), 1000);
                    break;
                case 1:
                    problem = check("sayHello.timeout", url.getMethodParameter("sayHello", "timeout", 0), round);
                    break;
                case 2:
                    problem = check("warmup", url.getParameter("warmup", 0L), 600_000L + round);
                    break;
                case 3:
                    problem = check("sticky", url.getParameter("sticky", round % 2 != 0), round % 2 == 0);
                    break;
                case 4:
                    problem = check("retries as long", url.getMethodParameter("x", "retries", 0L), (long) (round % 7));
                    break;
                default:
                    problem = check("retries", url.getMethodParameter("x", "retries", -1), round % 7);
                    break;
            }
            if (problem != null) {
                firstError.compareAndSet(null, problem);
            }
            done++;
        }
        return done;
    }

    private static String check(String what, Object actual, Object expected) {
        return expected.equals(actual) ? null : what + ": " + actual + " (expected: " + expected + ")";
    }
}
