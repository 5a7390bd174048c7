package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code destroy()} while other threads change providers and rules and refreshes run on a pool:
 * every invoker referred, before or during the destroy, is destroyed, and nothing is referred or
 * listed after it.
 */
class DestroyRaceTest {

    private static final int WRITERS = 4;
    private static final int ROUNDS = 20;

    @Test
    void destroy_racingNotifications_leavesNoInvoker_andReferNothingAfter() throws Exception {
        ExecutorService refreshPool = Executors.newFixedThreadPool(2);
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        try (Fixture fixture = new Fixture()) {
            for (int round = 0; round < ROUNDS; round++) {
                RegistryDirectory<DemoService> directory = RegistryDirectory
                        .builder(DemoService.class, URL.valueOf(Fixture.CONSUMER), fixture.registry)
                        .director(fixture.director).executor(refreshPool).build();
                CountDownLatch started = new CountDownLatch(WRITERS);
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    int writer = w;
                    int r = round;
                    done.add(writers.submit(() -> {
                        started.countDown();
                        for (int i = 0; i < 50; i++) {
                            URL provider = fixture.provider("10.3." + writer + "." + i + ":" + (r + 1), "");
                            URL rule = fixture.override("10.3." + writer + "." + i + ":" + (r + 1), "weight=" + i);
                            if (i % 2 == 0) {
                                fixture.registry.unregister(provider);
                                fixture.registry.unregister(rule);
                            }
                        }
                    }));
                }
                assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
                directory.destroy();
                for (Future<?> future : done) {
                    future.get(60, TimeUnit.SECONDS);
                }
                refreshPool.submit(() -> { }).get(30, TimeUnit.SECONDS);
                refreshPool.submit(() -> { }).get(30, TimeUnit.SECONDS);
                assertThat(directory.getInvokers()).isEmpty();
                assertThat(fixture.protocol.live()).as("round %d", round).isZero();
            }
            int referred = fixture.protocol.referred.get();
            fixture.provider("10.4.0.1:1", "");
            assertThat(fixture.protocol.referred.get()).as("referred after every directory was destroyed").isEqualTo(referred);
        } finally {
            writers.shutdownNow();
            refreshPool.shutdownNow();
            assertThat(writers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            assertThat(refreshPool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }
}
