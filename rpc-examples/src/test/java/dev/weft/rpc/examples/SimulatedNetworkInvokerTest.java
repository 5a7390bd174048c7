package dev.weft.rpc.examples;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimulatedNetworkInvokerTest {

    private static final Invocation GREET = new RpcInvocation("greet", new Class<?>[] {String.class},
            new Object[] {"call-0"});

    /** A provider that answers at once and counts its calls. */
    private static final class CountingProvider implements Invoker<GreetingService> {
        final AtomicInteger calls = new AtomicInteger();
        final URL url = new ProviderSpec("a", 100, 0, 0, "eu").url();

        @Override
        public Class<GreetingService> getInterface() {
            return GreetingService.class;
        }

        @Override
        public Result invoke(Invocation invocation) {
            calls.incrementAndGet();
            return RpcResult.of(invocation.getArguments()[0] + "@a");
        }

        @Override
        public URL getUrl() {
            return url;
        }

        @Override
        public boolean isAvailable() {
            return true;
        }

        @Override
        public void destroy() {
        }
    }

    @Test
    void providerUrl_carriesWeightAndZone() {
        URL url = new ProviderSpec("b", 250, 0, 0, "us").url();

        assertThat(url.getHost()).isEqualTo("b");
        assertThat(url.getParameter("weight", 0)).isEqualTo(250);
        assertThat(url.getParameter("zone")).isEqualTo("us");
        assertThat(new ProviderSpec("c", 1, 0, 0, null).url().hasParameter("zone")).isFalse();
    }

    @Test
    void healthyLink_passesTheCallThrough_andCountsTheAttempt() throws Throwable {
        CountingProvider provider = new CountingProvider();
        ProviderCounters counters = new ProviderCounters();
        var link = new SimulatedNetworkInvoker<>(provider, new ProviderSpec("a", 100, 0, 0, null), new Random(1), counters);

        assertThat(link.invoke(GREET).recreate()).isEqualTo("call-0@a");
        assertThat(link.getUrl()).isSameAs(provider.url);
        assertThat(link.getInterface()).isEqualTo(GreetingService.class);
        assertThat(counters.attempts()).isEqualTo(1);
        assertThat(counters.failures()).isZero();
    }

    @Test
    void downLink_throwsNetworkException_withoutReachingTheProvider() {
        CountingProvider provider = new CountingProvider();
        ProviderCounters counters = new ProviderCounters();
        var link = new SimulatedNetworkInvoker<>(provider, new ProviderSpec("a", 100, 0, 1.0, null), new Random(1), counters);

        assertThatThrownBy(() -> link.invoke(GREET))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNetwork()).isTrue())
                .hasMessageStartingWith("simulated network failure calling provider a (weft://a:20880/");
        assertThat(provider.calls).hasValue(0);
        assertThat(counters.failures()).isEqualTo(1);
    }

    @Test
    void failureRate_isHonoured_withASeededSource() {
        ProviderCounters counters = new ProviderCounters();
        var link = new SimulatedNetworkInvoker<>(new CountingProvider(), new ProviderSpec("d", 100, 0, 0.2, null),
                new Random(42), counters);
        int failures = 0;
        for (int i = 0; i < 10_000; i++) {
            try {
                link.invoke(GREET);
            } catch (RpcException e) {
                failures++;
            }
        }

        // expected 2000, standard deviation 40
        assertThat(failures).isBetween(1850, 2150);
        assertThat(counters.failures()).isEqualTo(failures);
        assertThat(counters.attempts()).isEqualTo(10_000);
    }

    @Test
    void sameSeed_givesTheSameFailureSequence() {
        assertThat(failurePattern(7)).isEqualTo(failurePattern(7)).isNotEqualTo(failurePattern(8));
    }

    private static String failurePattern(long seed) {
        var link = new SimulatedNetworkInvoker<>(new CountingProvider(), new ProviderSpec("d", 100, 0, 0.5, null),
                new Random(seed), new ProviderCounters());
        StringBuilder pattern = new StringBuilder();
        for (int i = 0; i < 64; i++) {
            try {
                link.invoke(GREET);
                pattern.append('.');
            } catch (RpcException e) {
                pattern.append('x');
            }
        }
        return pattern.toString();
    }

    @Test
    void latency_waitsAtLeastHalfTheMean() {
        var link = new SimulatedNetworkInvoker<>(new CountingProvider(), new ProviderSpec("c", 100, 4_000_000, 0, null),
                new Random(3), new ProviderCounters());

        long start = System.nanoTime();
        link.invoke(GREET);

        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(2_000_000);
    }

    @Test
    void interruptedWait_endsTheCall_andKeepsTheFlag() {
        var link = new SimulatedNetworkInvoker<>(new CountingProvider(), new ProviderSpec("c", 100, 1_000_000_000, 0, null),
                new Random(3), new ProviderCounters());

        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> link.invoke(GREET))
                    .isInstanceOf(RpcException.class)
                    .hasMessageStartingWith("call to provider c cancelled while in flight");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
