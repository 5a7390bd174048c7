package dev.weft.rpc.registry;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writers change providers and rules from several threads while callers call, with refreshes on
 * a pool: the directory converges to the registry's final content, and every invoker referred is
 * destroyed once the directory is.
 */
class ConcurrentRefreshStressTest {

    private static final int WRITERS = 4;
    private static final int CALLERS = 4;
    private static final int OPERATIONS_PER_WRITER = 400;

    @Test
    void concurrentChanges_converge_andLeakNoInvoker() throws Exception {
        ExecutorService refreshPool = Executors.newFixedThreadPool(2);
        ExecutorService threads = Executors.newFixedThreadPool(WRITERS + CALLERS);
        try (Fixture fixture = new Fixture()) {
            fixture.provider("10.0.0.1:1", "");
            RegistryDirectory<DemoService> directory = RegistryDirectory
                    .builder(DemoService.class, URL.valueOf(Fixture.CONSUMER), fixture.registry)
                    .director(fixture.director).executor(refreshPool).build();
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicLong calls = new AtomicLong();
            ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
            CountDownLatch writersDone = new CountDownLatch(WRITERS);
            for (int w = 0; w < WRITERS; w++) {
                long seed = w;
                threads.execute(() -> {
                    try {
                        write(fixture, new Random(seed), (int) seed);
                    } catch (Throwable t) {
                        unexpected.add(t);
                    } finally {
                        writersDone.countDown();
                    }
                });
            }
            for (int c = 0; c < CALLERS; c++) {
                threads.execute(() -> {
                    RpcInvocation invocation = new RpcInvocation("sayHello", new Class<?>[] {String.class}, new Object[] {"a"});
                    while (writing.get()) {
                        List<Invoker<DemoService>> invokers = directory.list(invocation);
                        for (Invoker<DemoService> invoker : invokers) {
                            try {
                                invoker.invoke(invocation);
                                calls.incrementAndGet();
                            } catch (RpcException e) {
                                if (!e.isNetwork()) {
                                    unexpected.add(e);
                                }
                            } catch (Throwable t) {
                                unexpected.add(t);
                            }
                        }
                    }
                });
            }
            assertThat(writersDone.await(60, TimeUnit.SECONDS)).isTrue();
            writing.set(false);
            threads.shutdown();
            assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            refreshPool.shutdown();
            assertThat(refreshPool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

            assertThat(unexpected).isEmpty();
            assertThat(calls.get()).isPositive();
            RegistryDirectory<DemoService> fresh = fixture.directory();
            assertThat(directory.getUrl()).isEqualTo(fresh.getUrl());
            assertThat(directory.getInvokers().stream().map(Invoker::getUrl).toList())
                    .containsExactlyInAnyOrderElementsOf(fresh.getInvokers().stream().map(Invoker::getUrl).toList());
            fresh.destroy();
            directory.destroy();
            assertThat(fixture.protocol.destroyed()).isEqualTo(fixture.protocol.referred.get());
        } finally {
            threads.shutdownNow();
            refreshPool.shutdownNow();
        }
    }

    /** Each writer owns its own addresses and rules, so it always knows what it registered. */
    private static void write(Fixture fixture, Random random, int writer) {
        List<URL> mine = new ArrayList<>();
        for (int i = 0; i < OPERATIONS_PER_WRITER; i++) {
            if (!mine.isEmpty() && random.nextInt(3) == 0) {
                fixture.registry.unregister(mine.remove(random.nextInt(mine.size())));
            } else if (random.nextBoolean()) {
                mine.add(fixture.provider("10.2." + writer + "." + (1 + random.nextInt(20)) + ":" + (1 + random.nextInt(3)),
                        "weight=" + random.nextInt(100)));
            } else {
                String host = random.nextBoolean() ? "0.0.0.0" : "10.2." + writer + "." + (1 + random.nextInt(20)) + ":1";
                mine.add(fixture.override(host, "weight=" + random.nextInt(100) + "&w" + writer + "=" + i));
            }
        }
    }
}
