package dev.weft.rpc.mock;

import dev.weft.rpc.cluster.DynamicDirectory;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.UserService;
import dev.weft.rpc.proxy.JavassistProxyFactory;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import static org.assertj.core.api.Assertions.assertThat;

class MockConcurrencyTest {

    private static final int THREADS = 8;
    private static final int CYCLES = 20;
    private static final int CALLS_PER_STATE = 100;

    /**
     * 8 threads call {@code sayHello} while the URL cycles off -> force -> invalid -> fail -> off.
     * Odd call ids fail at the provider with a network error. Each call must be explained by one
     * mode: "forced" never reached the provider; "fallback" reached it and it failed; "provider"
     * reached it and it succeeded; a network error reached it, it failed and no mock was on.
     */
    @Test
    void eightThreads_whileTheUrlFlips_everyCallAnswersConsistentlyWithOneMode() throws Exception {
        Set<Long> seenByProvider = ConcurrentHashMap.newKeySet();
        FakeProvider<UserService> provider = FakeProvider.at(UserService.class, URL.valueOf(MockClusterInvokerTest.PROVIDER))
                .answering((inv, fake) -> {
                    long id = Long.parseLong(inv.getAttachment("call.id"));
                    seenByProvider.add(id);
                    return id % 2 == 1 ? Reply.networkError().reply(inv, fake) : RpcResult.of("provider");
                });
        URL off = MockClusterInvokerTest.CONSUMER;
        URL force = off.addParameter("sayHello.mock", "force:return 'forced'");
        URL fail = off.addParameter("sayHello.mock", "fail:return 'fallback'");
        URL invalid = off.addParameter("sayHello.mock", "force:return 'never'").addParameter("count.mock", "return many");
        DynamicDirectory<UserService> directory = new DynamicDirectory<>(UserService.class, off);
        directory.setInvokers(List.of(provider));
        MockClusterInvoker<UserService> invoker = (MockClusterInvoker<UserService>)
                new MockClusterWrapper(new FirstInvokerCluster(), new JavassistProxyFactory()).join(directory);

        AtomicLong ids = new AtomicLong();
        LongAdder completed = new LongAdder();
        AtomicBoolean running = new AtomicBoolean(true);
        Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
        List<String> inconsistencies = new ArrayList<>();
        CountDownLatch started = new CountDownLatch(THREADS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                workers.add(pool.submit(() -> {
                    started.countDown();
                    while (running.get()) {
                        long id = ids.incrementAndGet();
                        RpcInvocation call = (RpcInvocation) MockClusterInvokerTest.call("sayHello", "x");
                        call.setAttachment("call.id", Long.toString(id));
                        String outcome;
                        try {
                            Result r = invoker.invoke(call);
                            outcome = String.valueOf(r.getValue());
                        } catch (RpcException e) {
                            outcome = e.isNetwork() ? "network error" : "other error: " + e;
                        }
                        boolean reached = seenByProvider.contains(id);
                        boolean failed = id % 2 == 1;
                        boolean consistent = switch (outcome) {
                            case "forced" -> !reached;
                            case "fallback" -> reached && failed;
                            case "provider" -> reached && !failed;
                            case "network error" -> reached && failed;
                            default -> false;
                        };
                        if (!consistent) {
                            synchronized (inconsistencies) {
                                inconsistencies.add("call " + id + ": " + outcome + " (provider reached: " + reached + ")");
                            }
                        }
                        outcomes.computeIfAbsent(outcome, k -> new LongAdder()).increment();
                        completed.increment();
                    }
                    return null;
                }));
            }
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            URL[] cycle = {force, invalid, fail, off};
            for (int i = 0; i < CYCLES * cycle.length; i++) {
                try {
                    directory.setUrl(cycle[i % cycle.length]);
                } catch (MockConfigurationException vetoed) {
                    // the invalid URL is vetoed: the previous configuration keeps serving
                }
                long target = completed.sum() + CALLS_PER_STATE;
                while (completed.sum() < target) {
                    Thread.onSpinWait();
                }
            }
            running.set(false);
            for (Future<?> worker : workers) {
                worker.get(30, TimeUnit.SECONDS);
            }
        } finally {
            running.set(false);
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }

        assertThat(inconsistencies).isEmpty();
        assertThat(outcomes.keySet()).containsExactlyInAnyOrder("forced", "fallback", "provider", "network error");
        assertThat(outcomes.values().stream().mapToLong(LongAdder::sum).sum()).isEqualTo(ids.get());
        assertThat(invoker.getRejectedUpdates()).isEqualTo(CYCLES);
        assertThat(invoker.getFailuresMasked()).isEqualTo(outcomes.get("fallback").sum());
        assertThat(invoker.getMockAnswers()).isEqualTo(outcomes.get("fallback").sum() + outcomes.get("forced").sum());
    }
}
