package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Exporter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * An open connection is available only while its provider answers: a call or PING unanswered for
 * the liveness bound, and then a probing PING unanswered as long, make it unavailable until a byte
 * arrives; a provider that is slow to answer calls but runs answers the probe and stays available.
 */
class LivenessTest {

    private final Loopback provider = new Loopback();
    private final Loopback consumer = new Loopback();
    private final ShapesImpl impl = new ShapesImpl();

    @AfterEach
    void tearDown() {
        consumer.close();
        provider.close();
    }

    private static long millisUntil(Invoker<?> invoker, boolean available) throws InterruptedException {
        long start = System.nanoTime();
        FaultTest.awaitTrue(() -> invoker.isAvailable() == available);
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    @Test
    void aProviderThatStopsReading_onAnOpenConnection_isUnavailableWithinTwoBounds_andAvailableOnceItAnswers()
            throws Exception {
        Exporter<Shapes> exporter = provider.export(Shapes.class, impl, "heartbeat=2000");
        try (TcpProxy proxy = new TcpProxy(exporter.getInvoker().getUrl().getPort())) {
            // liveness bound 200 ms; 3 silent heartbeats would be 6 s
            Invoker<Shapes> invoker = consumer.refer(Shapes.class, proxy.port(), "heartbeat=2000&timeout=300");
            Shapes shapes = Loopback.proxy(Shapes.class, invoker);
            FaultTest.awaitTrue(invoker::isAvailable);
            assertThat(shapes.echo("before")).isEqualTo("before");

            proxy.hold(); // nothing reaches the provider, as if it were stopped
            long start = System.nanoTime();
            RpcException timeout = catchThrowableOfType(RpcException.class, () -> shapes.echo("unanswered"));
            assertThat(timeout.isTimeout()).isTrue();
            FaultTest.awaitTrue(() -> !invoker.isAvailable());
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                    .as("ms until unavailable: 2 bounds of 200 ms, with room for a loaded machine").isLessThan(3_000);

            proxy.release();
            assertThat(millisUntil(invoker, true)).isLessThan(5_000);
            assertThat(proxy.accepted()).as("the same connection throughout").isEqualTo(1);
            assertThat(shapes.echo("after")).isEqualTo("after");
        }
    }

    @Test
    void aSlowCall_leavesTheProviderAvailable_sinceItAnswersTheProbe() throws Exception {
        Exporter<Shapes> exporter = provider.export(Shapes.class, impl, "heartbeat=1000");
        // liveness bound 100 ms, so the 1.5 s call is probed several times over
        Invoker<Shapes> invoker = consumer.refer(Shapes.class, exporter, "heartbeat=1000&timeout=10000");
        Shapes shapes = Loopback.proxy(Shapes.class, invoker);
        FaultTest.awaitTrue(invoker::isAvailable);

        CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> shapes.slow(1500));
        FaultTest.awaitTrue(() -> impl.slowCalls.get() == 1);
        int unavailable = 0;
        while (!slow.isDone()) {
            if (!invoker.isAvailable()) {
                unavailable++;
            }
            Thread.sleep(10);
        }
        assertThat(slow.get(10, TimeUnit.SECONDS)).isEqualTo("slept 1500");
        assertThat(unavailable).as("samples unavailable during the slow call").isZero();
    }
}
