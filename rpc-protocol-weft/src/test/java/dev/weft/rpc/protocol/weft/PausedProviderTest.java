package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Exporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider in a child JVM stopped with SIGSTOP (its kernel still accepts connections and takes
 * the bytes sent to it) and resumed with SIGCONT: the consumer must not count it as available
 * while it does not answer, on a new connection or an open one, and once it runs again it must
 * not run the calls its callers gave up on meanwhile.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class PausedProviderTest {

    /** The provider's process, its port, and its count of marked calls that ran. */
    private static final class Child implements AutoCloseable {

        final Process process;
        final int port;
        private final BufferedReader out;
        private final Writer in;

        Child(String query) throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            process = new ProcessBuilder(List.of(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                    ChildProvider.class.getName(), query))
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            String line = out.readLine();
            assertThat(line).startsWith("PORT ");
            port = Integer.parseInt(line.substring(5).trim());
        }

        void signal(String signal) throws IOException, InterruptedException {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(kill.exitValue()).isZero();
        }

        /** The marked {@code echo} calls that ran the child's implementation. */
        int marked() throws IOException {
            in.write("marked\n");
            in.flush();
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith("MARKED ")) {
                    return Integer.parseInt(line.substring(7).trim());
                }
            }
            throw new AssertionError("the child provider ended");
        }

        @Override
        public void close() throws Exception {
            signal("CONT");
            in.close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static boolean awaitAvailable(Invoker<?> invoker, boolean wanted, long millis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (invoker.isAvailable() != wanted && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        return invoker.isAvailable() == wanted;
    }

    @Test
    void aStoppedProvider_isNotAvailable_evenThoughItsKernelAcceptsConnections_andIsAgainOnceResumed()
            throws Exception {
        int heartbeat = 300;
        try (Child child = new Child("heartbeat=" + heartbeat); Loopback loopback = new Loopback()) {
            Invoker<Shapes> invoker = loopback.refer(Shapes.class, child.port, "heartbeat=" + heartbeat + "&timeout=2000");
            Shapes shapes = Loopback.proxy(Shapes.class, invoker);
            assertThat(awaitAvailable(invoker, true, 10_000)).as("available once it answered").isTrue();
            assertThat(shapes.echo("before")).isEqualTo("before");

            child.signal("STOP");
            // the old connection is closed after 3 silent heartbeats; reconnects (the kernel accepts
            // them) must not make it available
            assertThat(awaitAvailable(invoker, false, 6 * heartbeat + 2_000)).as("unavailable while stopped").isTrue();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            int availableSamples = 0;
            while (System.nanoTime() < end) {
                if (invoker.isAvailable()) {
                    availableSamples++;
                }
                Thread.sleep(20);
            }
            assertThat(availableSamples).as("samples available while stopped").isZero();

            child.signal("CONT");
            assertThat(awaitAvailable(invoker, true, 15_000)).as("available again once resumed").isTrue();
            assertThat(shapes.echo("after")).isEqualTo("after");
        }
    }

    /**
     * Callers keep calling two providers with a short timeout, picking among the available ones and
     * failing over to the other on a failure, while one of them (a child JVM) is stopped for 4 s on
     * an open connection (heartbeat 2 s: not closed as silent meanwhile; liveness bound 200 ms).
     */
    @Test
    void aProviderStoppedWhileCalled_losesItsShareWithinTheLivenessBound_andRunsNoneOfTheCallsItsCallersGaveUp()
            throws Exception {
        int heartbeat = 2_000;
        long pauseMillis = 4_000;
        long shareLostWithinMillis = 2_000; // 2 liveness bounds (400 ms), with room for a loaded machine
        ShapesImpl otherImpl = new ShapesImpl();
        try (Child child = new Child("heartbeat=" + heartbeat); Loopback other = new Loopback();
             Loopback consumer = new Loopback()) {
            Exporter<Shapes> otherExport = other.export(Shapes.class, otherImpl, "heartbeat=" + heartbeat);
            String query = "heartbeat=" + heartbeat + "&timeout=300";
            List<Invoker<Shapes>> invokers = List.of(consumer.refer(Shapes.class, child.port, query),
                    consumer.refer(Shapes.class, otherExport, query));
            Invoker<Shapes> paused = invokers.get(0);
            List<Shapes> proxies = invokers.stream().map(invoker -> Loopback.proxy(Shapes.class, invoker)).toList();
            for (Invoker<Shapes> invoker : invokers) {
                assertThat(awaitAvailable(invoker, true, 10_000)).isTrue();
            }
            // the same connections, with time for a cold JVM's first call (and, later, for the backlog)
            String patient = "heartbeat=" + heartbeat + "&timeout=20000";
            Shapes pausedPatiently = Loopback.proxy(Shapes.class, consumer.refer(Shapes.class, child.port, patient));
            Shapes otherPatiently = Loopback.proxy(Shapes.class, consumer.refer(Shapes.class, otherExport, patient));
            for (int i = 0; i < 20; i++) {
                assertThat(pausedPatiently.echo("warm")).isEqualTo("warm");
                assertThat(otherPatiently.echo("warm")).isEqualTo("warm");
            }

            AtomicBoolean calling = new AtomicBoolean(true);
            AtomicBoolean marking = new AtomicBoolean();
            AtomicInteger next = new AtomicInteger();
            AtomicInteger failed = new AtomicInteger();
            AtomicInteger markedCalls = new AtomicInteger();
            long[] stoppedAt = new long[1];
            /** Milliseconds after the stop at which a marked call was first sent to the stopped provider. */
            List<Long> sentToPaused = new CopyOnWriteArrayList<>();
            AtomicInteger sentLateToOther = new AtomicInteger();
            List<Thread> callers = new java.util.ArrayList<>();
            for (int t = 0; t < 2; t++) {
                Thread caller = new Thread(() -> {
                    for (int i = 0; i < 2_000 && calling.get(); i++) {
                        boolean marked = marking.get();
                        int n = next.getAndIncrement();
                        // the cluster's part: pick among the available providers, fail over to the other
                        List<Integer> available = invokers.get(0).isAvailable() ? List.of(0, 1) : List.of(1);
                        int first = available.get(n % available.size());
                        if (marked) {
                            markedCalls.incrementAndGet();
                            long since = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt[0]);
                            if (first == 0) {
                                sentToPaused.add(since);
                            } else if (since > shareLostWithinMillis) {
                                sentLateToOther.incrementAndGet();
                            }
                        }
                        String argument = (marked ? ShapesImpl.MARK : "plain-") + n;
                        // as failover with retries=2 would while the stopped one is unavailable: the first pick,
                        // then the provider that runs, twice at most
                        boolean answered = false;
                        for (int attempt = 0; attempt < 3 && !answered; attempt++) {
                            try {
                                proxies.get(attempt == 0 ? first : 1).echo(argument);
                                answered = true;
                            } catch (RpcException e) {
                                // the next attempt goes to the other provider
                            }
                        }
                        if (!answered) {
                            failed.incrementAndGet();
                        }
                        try {
                            Thread.sleep(5);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }, "caller-" + t);
                callers.add(caller);
                caller.start();
            }
            Thread.sleep(300);
            child.signal("STOP");
            stoppedAt[0] = System.nanoTime();
            marking.set(true);
            Thread.sleep(pauseMillis);
            calling.set(false);
            for (Thread caller : callers) {
                caller.join(10_000);
            }
            assertThat(paused.isAvailable()).as("the stopped provider, while stopped").isFalse();
            child.signal("CONT");

            assertThat(awaitAvailable(paused, true, 10_000)).as("available again once resumed").isTrue();
            assertThat(pausedPatiently.echo("after")).isEqualTo("after"); // sent after the backlog, on the same connection
            Thread.sleep(500); // any stale call handed to a thread has run by now
            assertThat(markedCalls.get()).as("calls issued during the pause").isGreaterThan(100);
            assertThat(sentLateToOther.get()).as("calls issued late in the pause").isPositive();
            assertThat(sentToPaused).as("ms after the stop at which calls were still sent to it").isNotEmpty()
                    .allSatisfy(since -> assertThat(since).isLessThan(shareLostWithinMillis));
            assertThat(failed.get()).as("calls that failed on both providers").isZero();
            assertThat(child.marked()).as("calls issued during the pause that the stopped provider ran once resumed")
                    .isZero();
            assertThat(otherImpl.markedEchoes.get()).as("calls issued during the pause, all run by the other (a retried"
                    + " attempt that timed out there may have run twice)").isGreaterThanOrEqualTo(markedCalls.get());
        }
    }
}
