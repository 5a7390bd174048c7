package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.filter.CallContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The consumer's {@code timeout} (service and method level) is the deadline of calls to providers
 * named directly with {@code url=}, over real weft sockets on 127.0.0.1.
 */
class WeftDirectTimeoutTest {

    /** Loose bound for a 300 ms deadline on two busy cores; the default deadline is 1000 ms. */
    private static final long WELL_BEFORE_DEFAULT_MILLIS = 900;

    public interface Greeter {
        String slow(String name);

        String other(String name);
    }

    /** Both methods hold the call until released (at most about 2 s), like a provider that sleeps. */
    static final class Sleepy implements Greeter {

        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger running = new AtomicInteger();

        @Override
        public String slow(String name) {
            return hold("slow " + name);
        }

        @Override
        public String other(String name) {
            return hold("other " + name);
        }

        private String hold(String answer) {
            running.incrementAndGet();
            try {
                release.await(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return answer;
        }
    }

    private final Sleepy sleepy = new Sleepy();

    @AfterEach
    void release() {
        sleepy.release.countDown();
    }

    @Test
    void directUrl_withConsumerTimeout_failsWithTimeoutWellBeforeTheDefault() {
        try (Weft weft = Weft.builder().application("shop").build()) {
            Greeter greeter = weft.refer(Greeter.class, "url=" + export(weft) + "&timeout=300&retries=0");

            long started = System.nanoTime();
            RpcException failure = catchThrowableOfType(RpcException.class, () -> greeter.slow("ada"));
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

            assertThat(failure).isNotNull();
            assertThat(failure.isTimeout()).as("timeout code of %s", failure).isTrue();
            assertThat(failure).hasMessageContaining("300 ms");
            assertThat(elapsedMillis).isGreaterThanOrEqualTo(250).isLessThan(WELL_BEFORE_DEFAULT_MILLIS);
        }
    }

    @Test
    void directUrl_withMethodTimeout_appliesToThatMethodOnly() {
        try (Weft weft = Weft.builder().application("shop").build()) {
            Greeter greeter = weft.refer(Greeter.class, "url=" + export(weft) + "&slow.timeout=300&timeout=5000&retries=0");

            long started = System.nanoTime();
            RpcException failure = catchThrowableOfType(RpcException.class, () -> greeter.slow("ada"));
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertThat(failure).isNotNull();
            assertThat(failure.isTimeout()).as("timeout code of %s", failure).isTrue();
            assertThat(failure).hasMessageContaining("within 300 ms");
            assertThat(elapsedMillis).isLessThan(WELL_BEFORE_DEFAULT_MILLIS);

            sleepy.release.countDown();
            assertThat(greeter.other("bob")).as("the service-level 5000 ms deadline").isEqualTo("other bob");
        }
    }

    @Test
    void directUrl_withActives_waitsForAPermitUpToTheCallsTimeout() throws Exception {
        try (Weft weft = Weft.builder().application("shop").build()) {
            // refer's provider check waits the consumer timeout for the connection's first PING
            // answer, which a loaded machine may not give within 300 ms: the 300 ms is the call's
            Greeter greeter = weft.refer(Greeter.class, "url=" + export(weft) + "&actives=1&timeout=5000&retries=0");
            CallContext context = CallContext.of(weft.director());
            Thread holder = new Thread(() -> greeter.slow("first"));
            holder.start();
            try {
                awaitFirstCallRunning();
                RpcException failure;
                try (CallContext.Scope shorter = context.with("timeout", "300")) {
                    failure = catchThrowableOfType(RpcException.class, () -> greeter.slow("second"));
                }

                assertThat(failure).isNotNull();
                assertThat(failure.getCode()).as("code of %s", failure).isEqualTo(RpcException.NOT_PROCESSED);
                assertThat(failure).as("the wait is the call's timeout").hasMessageContaining("waiting 300 ms");
                assertThat(sleepy.running.get()).as("calls that reached the provider").isEqualTo(1);
            } finally {
                sleepy.release.countDown();
                holder.join(5_000);
            }
        }
    }

    /** Polls (loose 10 s bound) until the provider runs one call. */
    private void awaitFirstCallRunning() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (sleepy.running.get() == 0) {
            assertThat(System.nanoTime() - deadline).as("the first call reaching the provider within 10 s").isNegative();
            Thread.sleep(10);
        }
    }

    /** Exports the sleepy greeter on a free loopback port and returns its address. */
    private String export(Weft weft) {
        int port = weft.export(Greeter.class, sleepy, "weft://127.0.0.1:0").getInvoker().getUrl().getPort();
        return "weft://127.0.0.1:" + port;
    }
}
