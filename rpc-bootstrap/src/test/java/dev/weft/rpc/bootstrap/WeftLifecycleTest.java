package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Lifecycle of a {@link Weft} over real weft sockets on 127.0.0.1: close during use, use after close, races. */
class WeftLifecycleTest {

    /** Holds each call until released (at most about 5 s). */
    static final class Held implements Greeter {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch returned = new CountDownLatch(1);

        @Override
        public String greet(String who) {
            entered.countDown();
            try {
                release.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                returned.countDown();
            }
            return "held:" + who;
        }
    }

    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : cleanup) {
            closeable.close();
        }
    }

    @Test
    void export_afterClose_withAGivenDirector_failsClearly_andLeavesThePortFree() throws IOException {
        ExtensionDirector director = keep(new ExtensionDirector(getClass().getClassLoader()));
        Weft weft = Weft.builder().director(director).build();
        weft.close();
        int port = freePort();

        assertThatThrownBy(() -> weft.export(Greeter.class, new NamedGreeter("a"), "weft://127.0.0.1:" + port))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThat(canBind(port)).as("port %s free after a refused export", port).isTrue();
    }

    @Test
    void exportAndRefer_afterClose_failWithTheSameClearError() {
        Weft weft = Weft.builder().build();
        weft.close();

        assertThatThrownBy(() -> weft.export(Greeter.class, new NamedGreeter("a"), "weft://127.0.0.1:0"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Weft: closed (expected: an open instance)");
        assertThatThrownBy(() -> weft.refer(Greeter.class, "url=weft://127.0.0.1:1&check=false"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Weft: closed (expected: an open instance)");
    }

    @Test
    void close_racingExports_leavesEveryPortFree() throws Exception {
        ExtensionDirector director = keep(new ExtensionDirector(getClass().getClassLoader()));
        int threads = 8;
        for (int round = 0; round < 5; round++) {
            Weft weft = Weft.builder().director(director).build();
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                ports.add(freePort());
            }
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> exports = new ArrayList<>();
                for (int port : ports) {
                    exports.add(pool.submit(() -> {
                        start.await();
                        return weft.export(Greeter.class, new NamedGreeter("a"), "weft://127.0.0.1:" + port);
                    }));
                }
                start.countDown();
                Thread.sleep(round);
                weft.close();
                for (Future<?> export : exports) {
                    try {
                        export.get(10, TimeUnit.SECONDS);
                    } catch (java.util.concurrent.ExecutionException refused) {
                        assertThat(refused.getCause()).hasMessageContaining("closed");
                    }
                }
            } finally {
                pool.shutdown();
                assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            }
            for (int port : ports) {
                assertThat(canBind(port)).as("round %s: port %s free once close() and every export returned", round, port)
                        .isTrue();
            }
        }
    }

    @Test
    void close_calledWhileAnotherCloseDrainsACall_returnsOnlyOnceThePortIsFree() throws Exception {
        Held held = new Held();
        Weft provider = Weft.builder().build();
        int port = provider.export(Greeter.class, held, "weft://127.0.0.1:0?shutdown-timeout=5000")
                .getInvoker().getUrl().getPort();
        Weft consumer = keep(Weft.builder().build());
        Greeter greeter = consumer.refer(Greeter.class, "url=weft://127.0.0.1:" + port + "&timeout=5000&retries=0");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<String> call = pool.submit(() -> greeter.greet("ada"));
            assertThat(held.entered.await(5, TimeUnit.SECONDS)).isTrue();
            Future<?> firstClose = pool.submit(provider::close);
            Thread.sleep(200); // the first close is draining the held call
            assertThat(firstClose).isNotDone();
            Thread releaser = new Thread(() -> {
                sleepQuietly(300);
                held.release.countDown();
            });
            releaser.start();

            provider.close();

            assertThat(canBind(port)).as("port free when the second close() returns").isTrue();
            assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("held:ada");
            firstClose.get(5, TimeUnit.SECONDS);
            releaser.join(5_000);
        } finally {
            held.release.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void close_whileTheUserUnexportsAServiceDrainingACall_returnsOnlyOnceThatUnexportFinished() throws Exception {
        Held held = new Held();
        ExtensionDirector director = keep(new ExtensionDirector(getClass().getClassLoader()));
        Weft provider = Weft.builder().director(director).build();
        var exporter = provider.export(Greeter.class, held, "weft://127.0.0.1:0?shutdown-timeout=5000");
        int port = exporter.getInvoker().getUrl().getPort();
        Weft consumer = keep(Weft.builder().build());
        Greeter greeter = consumer.refer(Greeter.class, "url=weft://127.0.0.1:" + port + "&timeout=5000&retries=0");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<String> call = pool.submit(() -> greeter.greet("ada"));
            assertThat(held.entered.await(5, TimeUnit.SECONDS)).isTrue();
            Future<?> unexport = pool.submit(exporter::unexport);
            Thread.sleep(200); // the user's unexport is draining the held call
            assertThat(unexport).isNotDone();
            Thread releaser = new Thread(() -> {
                sleepQuietly(300);
                held.release.countDown();
            });
            releaser.start();

            provider.close();

            assertThat(held.returned.getCount()).as("calls in flight drained when close() returns").isZero();
            assertThat(canBind(port)).as("port free when close() returns").isTrue();
            assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("held:ada");
            unexport.get(5, TimeUnit.SECONDS);
            releaser.join(5_000);
        } finally {
            held.release.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void close_racingThreadsThatExportAndUnexport_leavesEveryPortFree_andFailsOnlyWithClosed() throws Exception {
        ExtensionDirector director = keep(new ExtensionDirector(getClass().getClassLoader()));
        int threads = 6;
        for (int round = 0; round < 3; round++) {
            Weft weft = Weft.builder().director(director).build();
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                ports.add(freePort());
            }
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch started = new CountDownLatch(threads);
            try {
                List<Future<Integer>> loops = new ArrayList<>();
                for (int port : ports) {
                    loops.add(pool.submit(() -> {
                        started.countDown();
                        int cycles = 0;
                        while (cycles < 500) {
                            var exporter = weft.export(Greeter.class, new NamedGreeter("a"), "weft://127.0.0.1:" + port);
                            exporter.unexport();
                            cycles++;
                        }
                        return cycles;
                    }));
                }
                assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
                Thread.sleep(50L * (round + 1));
                weft.close();
                int refused = 0;
                for (Future<Integer> loop : loops) {
                    Throwable outcome = catchThrowable(() -> loop.get(30, TimeUnit.SECONDS));
                    if (outcome != null) {
                        refused++;
                        assertThat(outcome.getCause()).as("round %s", round)
                                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
                    }
                }
                assertThat(refused).as("round %s: loops still running when close() came", round).isPositive();
            } finally {
                pool.shutdown();
                assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            }
            for (int port : ports) {
                assertThat(canBind(port)).as("round %s: port %s free", round, port).isTrue();
            }
        }
    }

    @Test
    void consumerClose_withACallInFlight_returnsPromptly_andTheCallEndsWithoutWaitingItsTimeout() throws Exception {
        Held held = new Held();
        Weft provider = keep(Weft.builder().build());
        int port = provider.export(Greeter.class, held, "weft://127.0.0.1:0").getInvoker().getUrl().getPort();
        Weft consumer = Weft.builder().build();
        Greeter greeter = consumer.refer(Greeter.class, "url=weft://127.0.0.1:" + port + "&timeout=8000&retries=0");
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            long started = System.nanoTime();
            Future<String> call = pool.submit(() -> greeter.greet("ada"));
            assertThat(held.entered.await(5, TimeUnit.SECONDS)).isTrue();

            consumer.close();
            Throwable outcome = catchThrowable(() -> call.get(6, TimeUnit.SECONDS));
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

            assertThat(outcome).as("the call in flight when its consumer closed")
                    .isInstanceOf(java.util.concurrent.ExecutionException.class).hasCauseInstanceOf(RpcException.class);
            assertThat(elapsedMillis).as("well before the 8000 ms call timeout").isLessThan(5_000);
            assertThatThrownBy(() -> greeter.greet("bob")).isInstanceOf(RpcException.class);
        } finally {
            held.release.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void refer_waitingForAFirstProvider_failsPromptlyWhenClosed() throws Exception {
        Weft weft = Weft.builder().build();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            long started = System.nanoTime();
            Future<Greeter> refer = pool.submit(() ->
                    weft.refer(Greeter.class, "url=injvm://127.0.0.1&timeout=8000"));
            Thread.sleep(200);
            weft.close();
            Throwable failure = catchThrowable(() -> refer.get(10, TimeUnit.SECONDS));
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

            assertThat(failure).hasCauseInstanceOf(IllegalStateException.class);
            assertThat(failure.getCause()).hasMessageContaining("closed");
            assertThat(elapsedMillis).as("well before the 8000 ms check timeout").isLessThan(5_000);
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void refer_waitingForAFirstProvider_whenInterrupted_failsSayingSo_andKeepsTheInterrupt() throws Exception {
        Weft weft = keep(Weft.builder().build());
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Throwable> refer = pool.submit(() -> {
                Throwable failure = catchThrowable(() -> weft.refer(Greeter.class, "url=injvm://127.0.0.1&timeout=8000"));
                assertThat(Thread.currentThread().isInterrupted()).as("interrupt status kept").isTrue();
                return failure;
            });
            Thread.sleep(200);
            pool.shutdownNow();

            Throwable failure = refer.get(10, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("interrupted while waiting for a first provider")
                    .hasMessageNotContaining("no available provider within");
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void manyThreads_exportingAndReferring_onOneWeft_eachCallsItsOwnService() throws Exception {
        Weft weft = keep(Weft.builder().build());
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                String group = "g" + i;
                answers.add(pool.submit(() -> {
                    start.await();
                    int port = weft.export(Greeter.class, new NamedGreeter(group), "weft://127.0.0.1:0?group=" + group)
                            .getInvoker().getUrl().getPort();
                    Greeter greeter = weft.refer(Greeter.class,
                            "url=weft://127.0.0.1:" + port + "&group=" + group + "&timeout=3000");
                    return greeter.greet("ada");
                }));
            }
            start.countDown();
            Set<String> seen = new java.util.HashSet<>();
            for (Future<String> answer : answers) {
                seen.add(answer.get(30, TimeUnit.SECONDS));
            }
            assertThat(seen).hasSize(threads).allMatch(answer -> answer.matches("g[0-7]:ada"));
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void twoWefts_onOneDirectorAndOnePort_eachCloseReleasesOnlyItsOwnService() throws Exception {
        ExtensionDirector director = keep(new ExtensionDirector(getClass().getClassLoader()));
        Weft first = Weft.builder().director(director).build();
        Weft second = Weft.builder().director(director).build();
        int port = first.export(Greeter.class, new NamedGreeter("first"), "weft://127.0.0.1:0?group=first")
                .getInvoker().getUrl().getPort();
        second.export(Greeter.class, new NamedGreeter("second"), "weft://127.0.0.1:" + port + "?group=second");
        Weft consumer = keep(Weft.builder().build());
        Greeter toFirst = consumer.refer(Greeter.class, "url=weft://127.0.0.1:" + port + "&group=first&retries=0");
        Greeter toSecond = consumer.refer(Greeter.class, "url=weft://127.0.0.1:" + port + "&group=second&retries=0");
        assertThat(toFirst.greet("ada")).isEqualTo("first:ada");

        first.close();

        assertThat(toSecond.greet("ada")).as("the other Weft's service on the shared port").isEqualTo("second:ada");
        assertThatThrownBy(() -> toFirst.greet("ada")).isInstanceOf(RpcException.class);
        assertThat(canBind(port)).as("port still bound by the second Weft").isFalse();
        second.close();
        assertThat(canBind(port)).as("port free once both closed").isTrue();
        assertThat(director.isClosed()).isFalse();
    }

    @Test
    void close_leavesNoWeftThreadRunning() throws Exception {
        Set<String> before = weftThreads();
        try (Weft weft = Weft.builder().build()) {
            int port = weft.export(Greeter.class, new NamedGreeter("a"), "weft://127.0.0.1:0").getInvoker().getUrl().getPort();
            Greeter greeter = weft.refer(Greeter.class, "url=weft://127.0.0.1:" + port);
            assertThat(greeter.greet("ada")).isEqualTo("a:ada");
            assertThat(weftThreads()).as("threads while open").isNotEmpty();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!before.containsAll(weftThreads()) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(weftThreads()).as("weft threads after close").isSubsetOf(before);
    }

    /**
     * An unexport that never ends (a protocol whose drain hangs) holds {@code close()} only for the
     * longest {@code shutdown-timeout} of the exports plus the grace for closing connections, and
     * every unexport started, together, before close() gave up on them.
     */
    @Test
    void close_withStuckUnexports_returnsAfterTheLongestShutdownTimeoutPlusGrace() throws Exception {
        // the protocol's declaration is seen by this test's director only
        URLClassLoader withStuck = keep(new URLClassLoader(new java.net.URL[] {getClass().getResource("/stuck-protocol/")},
                getClass().getClassLoader()));
        ExtensionDirector director = keep(new ExtensionDirector(withStuck));
        Weft weft = Weft.builder().director(director).build();
        StuckProtocol stuck = (StuckProtocol) director.getExtensionLoader(Protocol.class).getExtension("stuck", false);
        weft.export(Greeter.class, who -> "a:" + who, "stuck://127.0.0.1:1?group=a&shutdown-timeout=200");
        weft.export(Greeter.class, who -> "b:" + who, "stuck://127.0.0.1:1?group=b&shutdown-timeout=300");

        long begun = System.nanoTime();
        weft.close();
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begun);

        assertThat(stuck.unexporting.await(5, TimeUnit.SECONDS)).as("both unexports started").isTrue();
        assertThat(stuck.release.getCount()).as("still stuck when close() returned").isOne();
        assertThat(tookMillis).isGreaterThanOrEqualTo(2_250).isLessThan(20_000);
    }

    private <C extends AutoCloseable> C keep(C closeable) {
        cleanup.add(0, closeable);
        return closeable;
    }

    private static Set<String> weftThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith("weft"))
                .collect(Collectors.toSet());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static boolean canBind(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
