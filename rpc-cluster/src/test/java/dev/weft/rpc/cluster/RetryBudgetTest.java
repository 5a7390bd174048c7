package dev.weft.rpc.cluster;

import dev.weft.rpc.testing.FakeTicker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class RetryBudgetTest {

    private final FakeTicker ticker = new FakeTicker();
    private final RetryBudget budget = new RetryBudget(ticker);

    private int grantedOf(int asked, RetryBudget.Settings settings) {
        return (int) IntStream.range(0, asked).filter(i -> budget.tryRetry(settings)).count();
    }

    private void calls(int count, RetryBudget.Settings settings) {
        for (int i = 0; i < count; i++) {
            budget.onCall(settings);
        }
    }

    @Test
    void budget_withoutCalls_grantsTheFloorOfTheWindow_thenRefuses_countingBoth() {
        RetryBudget.Settings floorOnly = new RetryBudget.Settings(0.2, 10);

        assertThat(grantedOf(150, floorOnly)).isEqualTo(100); // 10 per second over 10 s
        assertThat(budget.granted()).isEqualTo(100);
        assertThat(budget.refused()).isEqualTo(50);
    }

    @Test
    void budget_grantsItsShareOfTheCalls_plusTheFloor() {
        RetryBudget.Settings settings = new RetryBudget.Settings(0.2, 1);
        calls(1000, settings);

        assertThat(grantedOf(300, settings)).isEqualTo(200 + 10);
    }

    @Test
    void budget_depositsAndWithdrawalsExpireWithTheTenSecondWindow() {
        RetryBudget.Settings settings = new RetryBudget.Settings(0.5, 0);
        calls(10, settings);
        assertThat(grantedOf(10, settings)).isEqualTo(5);

        ticker.advance(Duration.ofSeconds(9));
        assertThat(grantedOf(1, settings)).as("the calls of 9 s ago still count, and so do the retries").isZero();
        calls(4, settings);
        assertThat(grantedOf(10, settings)).isEqualTo(2);

        ticker.advance(Duration.ofSeconds(1)); // the first second left the window: its 10 calls and 5 retries
        assertThat(grantedOf(10, settings)).as("4 calls (2 retries' worth) with 2 retries in the window").isZero();
        ticker.advance(Duration.ofSeconds(9));
        calls(2, settings);
        assertThat(grantedOf(10, settings)).isEqualTo(1);
    }

    @Test
    void budget_datesCallsAtTheLastReadingOfTheClock_soTheirDepositsLeaveTheWindowEarlyNeverLate() {
        RetryBudget.Settings settings = new RetryBudget.Settings(0.5, 0);
        ticker.advance(Duration.ofSeconds(11));
        calls(10, settings); // fewer than a batch: dated at the budget's creation, 11 s ago
        assertThat(grantedOf(10, settings)).as("deposits of calls dated out of the window").isZero();

        calls(RetryBudget.DATING_BATCH - 1, settings); // dated at the retry just asked, now
        ticker.advance(Duration.ofSeconds(9));
        calls(1, settings); // the batch is full: dated at that retry, 9 s ago
        assertThat(grantedOf(100, settings)).isEqualTo(RetryBudget.DATING_BATCH / 2);
        ticker.advance(Duration.ofSeconds(1));
        assertThat(grantedOf(100, settings)).as("the batch left the window with its second").isZero();
    }

    @Test
    void budget_followsNewSettingsAtOnce_keepingTheWindowsCounts() {
        RetryBudget.Settings tight = new RetryBudget.Settings(0.1, 0);
        calls(100, tight);
        assertThat(grantedOf(20, tight)).isEqualTo(10);

        RetryBudget.Settings looser = new RetryBudget.Settings(0.3, 0);
        assertThat(grantedOf(40, looser)).as("30 in all over the same 100 calls").isEqualTo(20);
    }

    @Test
    void budget_ofOneOrMore_isOff_grantingEverything_andCountingNoCall() {
        calls(5, RetryBudget.Settings.OFF);

        assertThat(grantedOf(1000, RetryBudget.Settings.OFF)).isEqualTo(1000);
        assertThat(budget.refused()).isZero();
        RetryBudget.Settings none = new RetryBudget.Settings(0, 0);
        assertThat(grantedOf(1, none)).as("the calls made while off deposited nothing").isZero();
    }

    @Test
    void budget_manyThreads_neverGrantMoreThanTheRuleAllows() throws Exception {
        RetryBudget.Settings settings = new RetryBudget.Settings(0.2, 1);
        int threads = 8;
        int callsPerThread = 5_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            AtomicInteger granted = new AtomicInteger();
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < callsPerThread; i++) {
                        budget.onCall(settings);
                        if (budget.tryRetry(settings)) {
                            granted.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> each : done) {
                each.get(60, TimeUnit.SECONDS);
            }
            int calls = threads * callsPerThread;
            assertThat(granted.get()).isLessThanOrEqualTo((int) (0.2 * calls) + 10).isGreaterThanOrEqualTo((int) (0.2 * calls) - threads);
            assertThat(budget.granted() + budget.refused()).isEqualTo(calls);
        } finally {
            pool.shutdownNow();
        }
    }
}
