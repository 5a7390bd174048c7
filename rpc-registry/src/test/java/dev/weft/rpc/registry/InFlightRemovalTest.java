package dev.weft.rpc.registry;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.HeldCalls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider that leaves (or that a rule disables) while many threads have calls in flight on it
 * is destroyed only when the last of those calls returns, and every one of them returns its answer.
 */
class InFlightRemovalTest {

    private static final int CALLERS = 8;

    private final Fixture fixture = new Fixture();
    private final ExecutorService callers = Executors.newFixedThreadPool(CALLERS);

    @AfterEach
    void close() throws InterruptedException {
        callers.shutdownNow();
        assertThat(callers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        fixture.close();
    }

    @Test
    void providerLeaving_underCallsFromManyThreads_isDestroyedWhenTheLastReturns() throws Exception {
        URL provider = fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        Invoker<DemoService> view = directory.getInvokers().get(0);
        FakeProvider<?> protocolInvoker = fixture.protocol.invokers.get(0);
        HeldCalls held = protocolInvoker.holdCalls();
        List<Future<Object>> inFlight = startCalls(view);
        assertThat(held.awaitHeld(CALLERS, Duration.ofSeconds(30))).isTrue();

        fixture.registry.unregister(provider);
        fixture.provider("10.0.0.2:2", "");
        assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.2:2");
        for (int returned = 1; returned < CALLERS; returned++) {
            held.release(1);
            awaitDone(inFlight, returned);
            assertThat(protocolInvoker.isDestroyed()).as("destroyed after %d of %d calls returned", returned, CALLERS)
                    .isFalse();
        }
        held.release(1);
        for (Future<Object> call : inFlight) {
            assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("10.0.0.1:1");
        }
        assertThat(protocolInvoker.isDestroyed()).isTrue();
        assertThat(fixture.protocol.live()).isEqualTo(1);
    }

    @Test
    void providerDisabledByARule_underCallsFromManyThreads_isDestroyedWhenTheLastReturns_andReferredAgainAfter()
            throws Exception {
        fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        Invoker<DemoService> view = directory.getInvokers().get(0);
        FakeProvider<?> protocolInvoker = fixture.protocol.invokers.get(0);
        HeldCalls held = protocolInvoker.holdCalls();
        List<Future<Object>> inFlight = startCalls(view);
        assertThat(held.awaitHeld(CALLERS, Duration.ofSeconds(30))).isTrue();

        URL rule = fixture.override("10.0.0.1:1", "disabled=true");
        assertThat(directory.getInvokers()).isEmpty();
        assertThat(protocolInvoker.isDestroyed()).isFalse();
        held.releaseAll();
        for (Future<Object> call : inFlight) {
            assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("10.0.0.1:1");
        }
        assertThat(protocolInvoker.isDestroyed()).isTrue();

        fixture.registry.unregister(rule);
        assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.1:1");
        assertThat(fixture.protocol.live()).isEqualTo(1);
    }

    /** Waits (bounded) until {@code count} of the calls have returned. */
    private static void awaitDone(List<Future<Object>> calls, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (calls.stream().filter(Future::isDone).count() < count && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(calls.stream().filter(Future::isDone).count()).isEqualTo(count);
    }

    private List<Future<Object>> startCalls(Invoker<DemoService> view) {
        List<Future<Object>> calls = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            calls.add(callers.submit(() -> view.invoke(new RpcInvocation("sayHello", new Class<?>[] {String.class},
                    new Object[] {"a"})).getValue()));
        }
        return calls;
    }
}
