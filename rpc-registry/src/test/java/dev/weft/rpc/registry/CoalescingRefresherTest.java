package dev.weft.rpc.registry;

import dev.weft.rpc.testing.CapturingLogger;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class CoalescingRefresherTest {

    @Test
    void executorThatRejects_isLoggedRateLimitedWithACount_withoutAStackTracePerRequest_andRecovers() {
        ExecutorService stopped = Executors.newSingleThreadExecutor();
        stopped.shutdown();
        CapturingLogger log = new CapturingLogger();
        AtomicInteger runs = new AtomicInteger();
        CoalescingRefresher refresher = new CoalescingRefresher(stopped, runs::incrementAndGet, log);

        for (int i = 0; i < 5; i++) {
            refresher.request();
        }

        String line = "WARN Refresh not scheduled: executor " + stopped + " rejected it; the next request tries again";
        assertThat(log.lines()).containsExactly(line + " (1 rejected so far)", line + " (2 rejected so far)",
                line + " (4 rejected so far)");
        assertThat(log.throwables()).isZero();
        assertThat(runs).hasValue(0);
    }

    @Test
    void afterARejection_theNextRequestOnAWorkingExecutorRuns() {
        AtomicInteger accept = new AtomicInteger();
        AtomicInteger runs = new AtomicInteger();
        CoalescingRefresher refresher = new CoalescingRefresher(command -> {
            if (accept.getAndIncrement() == 0) {
                throw new java.util.concurrent.RejectedExecutionException("full");
            }
            command.run();
        }, runs::incrementAndGet, new CapturingLogger());

        refresher.request();
        refresher.request();

        assertThat(runs).hasValue(1);
    }
}
