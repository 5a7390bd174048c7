package dev.weft.rpc.loadbalance;

import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.spi.ExtensionDirector;
import static dev.weft.rpc.loadbalance.Fixtures.provider;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import static dev.weft.rpc.loadbalance.Fixtures.call;
import static org.assertj.core.api.Assertions.assertThat;

/** 8 threads x 100k selects while another thread keeps replacing the invoker list. */
class ConcurrentSelectTest {

    private static final int THREADS = 8;
    private static final int SELECTS = 100_000;

    @ParameterizedTest
    @ValueSource(strings = {"random", "roundrobin", "leastactive", "shortestresponse", "consistenthash", "p2c"})
    void select_8ThreadsX100k_onAChangingList_noExceptionAndNoLostCount(String name) throws Exception {
        AbstractLoadBalance balance = switch (name) {
            case "random" -> new RandomLoadBalance();
            case "roundrobin" -> new RoundRobinLoadBalance();
            case "leastactive" -> new LeastActiveLoadBalance();
            case "shortestresponse" -> new ShortestResponseLoadBalance();
            case "consistenthash" -> new ConsistentHashLoadBalance();
            default -> new P2cLoadBalance();
        };
        dev.weft.rpc.spi.ExtensionDirector director = new dev.weft.rpc.spi.ExtensionDirector(getClass().getClassLoader());
        balance.setExtensionDirector(director);
        CallStats callStats = CallStats.of(director);
        List<Invoker<FakeService>> pool = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (int i = 0; i < 20; i++) {
            String params = switch (i % 4) {
                case 0 -> "weight=" + (i * 7 % 13);
                case 1 -> "weight=100&warmup=60000&timestamp=" + (now - i * 1000);
                case 2 -> "m.weight=5";
                default -> "";
            };
            pool.add(provider("p" + i, params));
        }
        URL url = Fixtures.CONSUMER.addParameter("hash.load.factor", "1.5");
        AtomicReference<List<Invoker<FakeService>>> current = new AtomicReference<>(List.copyOf(pool));
        Map<Invoker<FakeService>, LongAdder> picks = new ConcurrentHashMap<>();
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService executor = Executors.newFixedThreadPool(THREADS + 1);
        try {
            Future<?> changer = executor.submit(() -> {
                Random random = new Random(3);
                List<Invoker<FakeService>> shuffled = new ArrayList<>(pool);
                while (running.get()) {
                    Collections.shuffle(shuffled, random);
                    current.set(List.copyOf(shuffled.subList(0, 2 + random.nextInt(shuffled.size() - 1))));
                    Thread.onSpinWait();
                }
                return null;
            });
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                workers.add(executor.submit(() -> {
                    go.await();
                    for (int i = 0; i < SELECTS; i++) {
                        List<Invoker<FakeService>> list = current.get();
                        Invoker<FakeService> chosen = balance.select(list, url, call(i % 2 == 0 ? "m" : "n", "key-" + thread + "-" + (i % 500)));
                        if (!list.contains(chosen)) {
                            throw new AssertionError(chosen + " is not in " + list);
                        }
                        InvokerStats stats = callStats.get(chosen);
                        long started = stats.startCall();
                        picks.computeIfAbsent(chosen, k -> new LongAdder()).increment();
                        stats.endCall(started, i % 50 != 0);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> worker : workers) {
                worker.get();
            }
            running.set(false);
            changer.get();
        } finally {
            running.set(false);
            executor.shutdownNow();
        }
        assertThat(picks.values().stream().mapToLong(LongAdder::sum).sum()).isEqualTo((long) THREADS * SELECTS);
        for (Invoker<FakeService> invoker : pool) {
            assertThat(callStats.get(invoker).inFlight()).isZero();
        }
    }
}
