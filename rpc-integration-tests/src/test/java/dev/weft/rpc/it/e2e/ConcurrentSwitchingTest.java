package dev.weft.rpc.it.e2e;

import dev.weft.rpc.cluster.DynamicDirectory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.testing.FakeProvider;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many threads call one consumer while another thread keeps switching mock on and off
 * ({@code setUrl}) and swapping the provider list ({@code setInvokers}): every call is answered
 * by a provider or by the mock, none fails, none is lost or counted twice.
 */
class ConcurrentSwitchingTest {

    private static final int CALLERS = 8;
    private static final int CALLS_PER_CALLER = 2_000;

    @Test
    void calls_whileUrlAndProvidersChange_areNeverLostNorFailed() throws Exception {
        try (WeftStack stack = new WeftStack()) {
            List<FakeProvider<Greeter>> providers = stack.providers("", "", "", "");
            URL plain = WeftStack.consumerUrl("cluster=failover&loadbalance=roundrobin");
            URL mocked = plain.addParameter("greet.mock", "force:return 'mocked'");
            DynamicDirectory<Greeter> directory = new DynamicDirectory<>(Greeter.class, plain);
            List<Invoker<Greeter>> all = new ArrayList<>(providers);
            List<Invoker<Greeter>> firstTwo = new ArrayList<>(providers.subList(0, 2));
            directory.setInvokers(all);
            Greeter greeter = stack.consumer(directory);

            ExecutorService pool = Executors.newFixedThreadPool(CALLERS + 1);
            try {
                CountDownLatch start = new CountDownLatch(1);
                AtomicBoolean stop = new AtomicBoolean();
                AtomicInteger made = new AtomicInteger();
                AtomicInteger seenMock = new AtomicInteger();
                AtomicInteger seenProvider = new AtomicInteger();
                Future<Integer> switcher = pool.submit(() -> {
                    start.await();
                    int switches = 0;
                    while (!stop.get()) {
                        directory.setUrl(switches % 2 == 0 ? mocked : plain);
                        directory.setInvokers(switches % 3 == 0 ? firstTwo : all);
                        switches++;
                        Thread.onSpinWait();
                    }
                    return switches;
                });
                List<Future<int[]>> callers = new ArrayList<>();
                for (int c = 0; c < CALLERS; c++) {
                    callers.add(pool.submit(() -> {
                        start.await();
                        int[] counts = new int[2]; // [provider answers, mock answers]
                        // at least CALLS_PER_CALLER calls, and on (up to 30 s) until the callers saw both
                        // answers: on a busy machine the switcher may not run at all during the first ones
                        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                        for (int i = 0; i < CALLS_PER_CALLER
                                || ((seenMock.get() == 0 || seenProvider.get() == 0) && System.nanoTime() < until); i++) {
                            made.incrementAndGet();
                            String answer = greeter.greet("x");
                            if (answer.equals("mocked")) {
                                counts[1]++;
                                seenMock.incrementAndGet();
                            } else {
                                assertThat(answer).matches("[abcd]: hello x");
                                counts[0]++;
                                seenProvider.incrementAndGet();
                            }
                        }
                        return counts;
                    }));
                }
                start.countDown();
                int answeredByProviders = 0;
                int answeredByMock = 0;
                for (Future<int[]> caller : callers) {
                    int[] counts = caller.get(60, TimeUnit.SECONDS);
                    answeredByProviders += counts[0];
                    answeredByMock += counts[1];
                }
                stop.set(true);
                assertThat(switcher.get(10, TimeUnit.SECONDS)).isPositive();

                assertThat(answeredByProviders + answeredByMock).isEqualTo(made.get()).isGreaterThanOrEqualTo(CALLERS * CALLS_PER_CALLER);
                assertThat(answeredByMock).as("calls made while mock was on").isPositive();
                assertThat(answeredByProviders).as("calls made while mock was off").isPositive();
                assertThat(stack.served).as("each provider answer is exactly one provider call").hasSize(answeredByProviders);
            } finally {
                pool.shutdownNow();
                assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            }
        }
    }
}
