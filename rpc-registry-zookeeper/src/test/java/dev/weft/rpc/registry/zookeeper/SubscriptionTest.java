package dev.weft.rpc.registry.zookeeper;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Delivery order, coalescing and markers, with an executor the test runs by hand. */
class SubscriptionTest {

    private static final URL CONSUMER = URL.valueOf("consumer://10.0.0.9/com.example.DemoService?category=providers,configurators");
    private static final URL A = URL.valueOf("weft://10.0.0.1:20880/com.example.DemoService");
    private static final URL B = URL.valueOf("weft://10.0.0.2:20880/com.example.DemoService");
    private static final URL RULE = URL.valueOf("override://0.0.0.0/com.example.DemoService?category=configurators&weight=5");

    /** Runs queued tasks only when asked. */
    private static final class ManualExecutor implements Executor {
        private final Queue<Runnable> tasks = new ArrayDeque<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        void runAll() {
            Runnable task;
            while ((task = tasks.poll()) != null) {
                task.run();
            }
        }
    }

    private final ManualExecutor executor = new ManualExecutor();
    private final RecordingListener listener = new RecordingListener();
    private final Subscription subscription = new Subscription(CONSUMER, listener, executor,
            new RateLimitedLog(LoggerFactory.getLogger(SubscriptionTest.class), Ticker.systemTicker(), 1, TimeUnit.SECONDS));

    @Test
    void olderSnapshotOfferedAfterANewerOne_isNeverDelivered() {
        subscription.offer(new CategorySnapshot("providers", 2, List.of(A, B)));
        subscription.offer(new CategorySnapshot("providers", 1, List.of(A)));
        executor.runAll();
        subscription.offer(new CategorySnapshot("providers", 1, List.of(A)));
        executor.runAll();

        assertThat(listener.all()).containsExactly(List.of(A, B));
    }

    @Test
    void snapshotsOfferedFasterThanDelivered_areCoalescedToTheLatestPerCategory() {
        subscription.offer(new CategorySnapshot("providers", 1, List.of(A)));
        subscription.offer(new CategorySnapshot("configurators", 1, List.of(RULE)));
        subscription.offer(new CategorySnapshot("providers", 2, List.of(A, B)));
        subscription.offer(new CategorySnapshot("providers", 3, List.of(B)));
        executor.runAll();

        assertThat(listener.all()).containsExactly(List.of(B), List.of(RULE));
    }

    @Test
    void anEqualList_isNotDeliveredTwice_anEmptyFolderIsTheEmptyMarker() {
        subscription.offer(new CategorySnapshot("providers", 1, List.of(A)));
        executor.runAll();
        subscription.offer(new CategorySnapshot("providers", 2, List.of(A)));
        executor.runAll();
        subscription.offer(new CategorySnapshot("providers", 3, List.of()));
        executor.runAll();

        assertThat(listener.all()).containsExactly(List.of(A),
                List.of(URL.valueOf("empty://10.0.0.9/com.example.DemoService?category=providers")));
    }

    @Test
    void aListenerThatThrows_stillGetsLaterLists() {
        List<List<URL>> seen = new java.util.ArrayList<>();
        Subscription failing = new Subscription(CONSUMER, urls -> {
            seen.add(urls);
            if (seen.size() == 1) {
                throw new IllegalStateException("boom");
            }
        }, executor, new RateLimitedLog(LoggerFactory.getLogger(SubscriptionTest.class), Ticker.systemTicker(), 1,
                TimeUnit.SECONDS));

        failing.offer(new CategorySnapshot("providers", 1, List.of(A)));
        executor.runAll();
        failing.offer(new CategorySnapshot("providers", 2, List.of(A, B)));
        executor.runAll();

        assertThat(seen).containsExactly(List.of(A), List.of(A, B));
    }

    @Test
    void afterClose_nothingIsDelivered() {
        subscription.offer(new CategorySnapshot("providers", 1, List.of(A)));
        subscription.close();
        executor.runAll();
        subscription.offer(new CategorySnapshot("providers", 2, List.of(B)));
        executor.runAll();

        assertThat(listener.all()).isEmpty();
    }
}
