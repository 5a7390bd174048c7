package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.StaticDirectory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.spi.ExtensionLoader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static dev.weft.rpc.protocol.weft.FaultTest.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/** Graceful shutdown: consumers told first, running calls drained, port and threads released. */
class ShutdownTest {

    /** Rolling restarts per provider; {@code mvn ... -Dweft.rollingRestarts=20} for the full run by hand. */
    private static final int ROLLING_RESTARTS = Integer.getInteger("weft.rollingRestarts", 3);
    /** Providers closed under load by {@link #closeUnderLoad_withoutACluster_everyCallIsAnsweredOrNotProcessed}. */
    private static final int CLOSE_ROUNDS = Integer.getInteger("weft.closeRounds", 10);

    @AfterAll
    static void noLeaks() {
        LeakCounter.assertNoLeaks();
    }

    @Test
    void unexport_tellsConsumers_drainsRunningCalls_refusesNewOnes_releasesThePort() throws Exception {
        try (Loopback provider = new Loopback(); Loopback consumer = new Loopback()) {
            ShapesImpl impl = new ShapesImpl();
            Exporter<Shapes> exporter = provider.export(Shapes.class, impl, "shutdown-timeout=5000");
            int port = exporter.getInvoker().getUrl().getPort();
            Invoker<Shapes> invoker = consumer.refer(Shapes.class, exporter, "timeout=5000");
            Shapes shapes = Loopback.proxy(Shapes.class, invoker);
            assertThat(shapes.echo("up")).isEqualTo("up");
            assertThat(invoker.isAvailable()).isTrue();

            CompletableFuture<String> running = CompletableFuture.supplyAsync(() -> shapes.slow(800));
            awaitTrue(() -> impl.slowCalls.get() == 1);
            CompletableFuture<Void> unexport = CompletableFuture.runAsync(exporter::unexport);

            awaitTrue(() -> !invoker.isAvailable());
            RpcException refused = null;
            try {
                shapes.echo("during drain");
            } catch (RpcException e) {
                refused = e;
            }
            assertThat(refused).isNotNull();
            assertThat(refused.isNotProcessed()).isTrue();
            assertThat(running.get(10, TimeUnit.SECONDS)).isEqualTo("slept 800");
            unexport.get(10, TimeUnit.SECONDS);
            assertThat(impl.calls).hasValue(1);
            try (ServerSocket rebound = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(rebound.getLocalPort()).isEqualTo(port);
            }
        }
    }

    @Test
    void destroy_releasesEveryThreadItStarted() throws Exception {
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, new ShapesImpl(), "threads=4");
            Shapes shapes = Loopback.proxy(Shapes.class, loopback.refer(Shapes.class, exporter, "connections=2"));
            for (int i = 0; i < 20; i++) {
                assertThat(shapes.echo("x" + i)).isEqualTo("x" + i);
            }
            assertThat(weftThreads()).isNotEmpty();
        }
        awaitTrue(() -> weftThreads().isEmpty());
    }

    private static List<String> weftThreads() {
        List<String> names = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.isAlive() && thread.getName().startsWith("weft-")) {
                names.add(thread.getName());
            }
        }
        return names;
    }

    @Test
    void rollingRestartsOfTwoProviders_underLoad_noCallFails() throws Exception {
        ShapesImpl impl = new ShapesImpl();
        Loopback[] providers = {new Loopback(), new Loopback()};
        int[] ports = new int[2];
        for (int i = 0; i < 2; i++) {
            ports[i] = providers[i].export(Shapes.class, impl, "shutdown-timeout=3000").getInvoker().getUrl().getPort();
        }
        try (Loopback consumer = new Loopback()) {
            List<Invoker<Shapes>> invokers = List.of(
                    consumer.refer(Shapes.class, ports[0], "timeout=3000"),
                    consumer.refer(Shapes.class, ports[1], "timeout=3000"));
            URL consumerUrl = URL.valueOf("consumer://127.0.0.1/" + Shapes.class.getName() + "?retries=2");
            Invoker<Shapes> cluster = ExtensionLoader.getExtensionLoader(Cluster.class).getExtension("failover")
                    .join(new StaticDirectory<>(consumerUrl, invokers));
            Shapes shapes = Loopback.proxy(Shapes.class, cluster);
            awaitTrue(() -> invokers.get(0).isAvailable() && invokers.get(1).isAvailable());

            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger ok = new AtomicInteger();
            AtomicInteger failed = new AtomicInteger();
            AtomicReference<Throwable> firstFailure = new AtomicReference<>();
            List<Thread> callers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Thread caller = new Thread(() -> {
                    while (!stop.get()) {
                        try {
                            if (shapes.add(1, 2) == 3) {
                                ok.incrementAndGet();
                            }
                        } catch (RuntimeException e) {
                            failed.incrementAndGet();
                            firstFailure.compareAndSet(null, e);
                        }
                    }
                });
                caller.start();
                callers.add(caller);
            }
            for (int round = 0; round < ROLLING_RESTARTS; round++) {
                for (int i = 0; i < 2; i++) {
                    int okBefore = ok.get();
                    providers[i].close();
                    providers[i] = new Loopback();
                    providers[i].protocol.export(Loopback.provider(Shapes.class, impl,
                            URL.valueOf("weft://127.0.0.1:" + ports[i] + "/" + Shapes.class.getName()
                                    + "?shutdown-timeout=3000")));
                    Invoker<Shapes> restarted = invokers.get(i);
                    awaitTrue(restarted::isAvailable);
                    awaitTrue(() -> ok.get() > okBefore + 50);
                }
            }
            stop.set(true);
            for (Thread caller : callers) {
                caller.join(10_000);
            }
            assertThat(firstFailure.get()).isNull();
            assertThat(failed).hasValue(0);
            assertThat(ok.get()).isGreaterThan(ROLLING_RESTARTS * 100);
            System.out.printf("rolling restarts: %d per provider, %d calls answered, %d failed%n", ROLLING_RESTARTS,
                    ok.get(), failed.get());
        } finally {
            for (Loopback provider : providers) {
                provider.close();
            }
        }
    }

    /**
     * Without a cluster to retry, closing a provider under load must still leave every caller with
     * either its answer or NOT_PROCESSED ("not run, safe to retry"): never a network failure for a
     * call that was not run, nor a call lost. Several rounds, since the races sit in the moment of
     * closing.
     */
    @Test
    void closeUnderLoad_withoutACluster_everyCallIsAnsweredOrNotProcessed() throws Exception {
        Map<String, Integer> failures = new TreeMap<>();
        int answered = 0;
        for (int round = 0; round < CLOSE_ROUNDS; round++) {
            ShapesImpl impl = new ShapesImpl();
            Loopback provider = new Loopback();
            Exporter<Shapes> exporter = provider.export(Shapes.class, impl, "shutdown-timeout=3000");
            try (Loopback consumer = new Loopback()) {
                Shapes shapes = Loopback.proxy(Shapes.class, consumer.refer(Shapes.class, exporter, "timeout=3000"));
                assertThat(shapes.add(1, 2)).isEqualTo(3);
                AtomicInteger ok = new AtomicInteger();
                List<CompletableFuture<RpcException>> callers = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    callers.add(CompletableFuture.supplyAsync(() -> {
                        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                        while (System.nanoTime() < end) {
                            try {
                                assertThat(shapes.add(1, 2)).isEqualTo(3);
                                ok.incrementAndGet();
                            } catch (RpcException e) {
                                return e;
                            }
                        }
                        return null;
                    }));
                }
                awaitTrue(() -> ok.get() > 200);
                provider.close();
                for (CompletableFuture<RpcException> caller : callers) {
                    RpcException failure = caller.get(15, TimeUnit.SECONDS);
                    assertThat(failure).as("each caller's first failure after the provider closed").isNotNull();
                    if (!failure.isNotProcessed()) {
                        failures.merge(failure.getCode() + ": " + failure.getMessage(), 1, Integer::sum);
                    }
                }
                answered += ok.get();
            } finally {
                provider.close();
            }
        }
        assertThat(failures).as("callers that failed otherwise than NOT_PROCESSED").isEmpty();
        System.out.printf("close under load: %d rounds, %d calls answered%n", CLOSE_ROUNDS, answered);
    }

    /**
     * Its one thread blocked past {@code shutdown-timeout}: the calls queued behind it never ran,
     * so they are answered NOT_PROCESSED (retryable anywhere) before the connection closes; the
     * call that was running is never answered NOT_PROCESSED, since it may have had effects.
     */
    @Test
    void shutdownTimeoutRunsOut_withEveryThreadBusy_queuedCallsAreAnsweredNotProcessed() throws Exception {
        ShapesImpl impl = new ShapesImpl();
        Loopback provider = new Loopback();
        Exporter<Shapes> exporter = provider.export(Shapes.class, impl, "threads=1&shutdown-timeout=300");
        try (Loopback consumer = new Loopback()) {
            Shapes shapes = Loopback.proxy(Shapes.class, consumer.refer(Shapes.class, exporter, "timeout=30000"));
            CompletableFuture<String> running = CompletableFuture.supplyAsync(() -> shapes.slow(30_000));
            awaitTrue(() -> impl.slowCalls.get() == 1);
            List<CompletableFuture<String>> queued = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                String value = "queued " + i;
                queued.add(CompletableFuture.supplyAsync(() -> shapes.echo(value)));
            }
            QueueFirstExecutor executor = ((WeftExporter<?>) exporter).server().executor();
            awaitTrue(() -> executor.queued() == 3);

            long start = System.nanoTime();
            provider.close();

            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(10_000);
            for (CompletableFuture<String> call : queued) {
                assertThat(failureOf(call)).satisfies(e -> {
                    assertThat(e.isNotProcessed()).as("%s", e).isTrue();
                    assertThat(e).hasMessageContaining("shutdown-timeout 300 ms passed before a thread was free");
                });
            }
            // The running call is interrupted as the threads are released; its answer races the
            // connection's close, and either way its caller is not told it did not run.
            try {
                assertThat(running.get(15, TimeUnit.SECONDS)).isEqualTo("interrupted");
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(RpcException.class);
                assertThat(((RpcException) e.getCause()).isNotProcessed()).as("%s", e.getCause()).isFalse();
            }
            assertThat(impl.calls).hasValue(0);
        } finally {
            provider.close();
        }
    }

    /**
     * One service of a shared port unexported while its call blocks the port's only thread past
     * {@code shutdown-timeout}: its queued calls are answered NOT_PROCESSED then, not when the thread
     * frees; the running call finishes normally, and the port serves the other service afterwards.
     */
    @Test
    void unexportOfOneService_timingOutWithEveryThreadBusy_answersItsQueuedCallsAtOnce() throws Exception {
        try (Loopback provider = new Loopback(); Loopback consumer = new Loopback()) {
            ShapesImpl first = new ShapesImpl();
            Exporter<Shapes> unexported = provider.export(Shapes.class, first, "version=1&threads=1&shutdown-timeout=300");
            int port = unexported.getInvoker().getUrl().getPort();
            provider.protocol.export(Loopback.provider(Shapes.class, new ShapesImpl(),
                    URL.valueOf("weft://127.0.0.1:" + port + "/" + Shapes.class.getName() + "?version=2")));
            Shapes one = Loopback.proxy(Shapes.class, consumer.refer(Shapes.class, port, "version=1&timeout=30000"));
            Shapes two = Loopback.proxy(Shapes.class, consumer.refer(Shapes.class, port, "version=2&timeout=30000"));
            CompletableFuture<String> running = CompletableFuture.supplyAsync(() -> one.slow(10_000));
            awaitTrue(() -> first.slowCalls.get() == 1);
            List<CompletableFuture<String>> queued = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                String value = "queued " + i;
                queued.add(CompletableFuture.supplyAsync(() -> one.echo(value)));
            }
            QueueFirstExecutor executor = ((WeftExporter<?>) unexported).server().executor();
            awaitTrue(() -> executor.queued() == 2);

            long start = System.nanoTime();
            unexported.unexport();
            for (CompletableFuture<String> call : queued) {
                assertThat(failureOf(call).isNotProcessed()).isTrue();
            }

            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(8_000);
            assertThat(first.calls).hasValue(0);
            assertThat(running.get(15, TimeUnit.SECONDS)).isEqualTo("slept 10000");
            assertThat(two.echo("other service")).isEqualTo("other service");
        }
    }

    private static RpcException failureOf(CompletableFuture<String> call) throws Exception {
        try {
            String value = call.get(15, TimeUnit.SECONDS);
            throw new AssertionError("expected a failure, got " + value);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(RpcException.class);
            return (RpcException) e.getCause();
        }
    }

    /**
     * Unexporting the last service of a port while another thread exports a service to that port:
     * the export either joins the server before it closes or binds a new one, and never finds the
     * port still held by the closing server.
     */
    @Test
    void unexportOfThePortsLastService_racingAnExportToThatPort_neverFailsTheExport() throws Exception {
        try (Loopback provider = new Loopback(); Loopback consumer = new Loopback()) {
            int port = freePort();
            URL first = URL.valueOf("weft://127.0.0.1:" + port + "/" + Shapes.class.getName() + "?version=1");
            URL second = URL.valueOf("weft://127.0.0.1:" + port + "/" + Shapes.class.getName() + "?version=2");
            ShapesImpl impl = new ShapesImpl();
            for (int round = 0; round < 30; round++) {
                Exporter<Shapes> leaving = provider.protocol.export(Loopback.provider(Shapes.class, impl, first));
                CyclicBarrier start = new CyclicBarrier(2);
                CompletableFuture<Void> unexport = CompletableFuture.runAsync(() -> {
                    await(start);
                    leaving.unexport();
                });
                await(start);
                Exporter<Shapes> arriving = provider.protocol.export(Loopback.provider(Shapes.class, impl, second));
                unexport.get(10, TimeUnit.SECONDS);

                Shapes shapes = Loopback.proxy(Shapes.class, consumer.refer(Shapes.class, port, "version=2&timeout=3000"));
                assertThat(shapes.add(round, 1)).as("round %d", round).isEqualTo(round + 1);
                arriving.unexport();
            }
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
