package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Calls;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.protocol.Greeter;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.HeldCalls;
import dev.weft.rpc.testing.PeakInFlight;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExecuteLimitFilterTest {

    private static final Duration AWAIT = Duration.ofSeconds(10);

    private final ExtensionDirector director = new ExtensionDirector(ExecuteLimitFilterTest.class.getClassLoader());

    @AfterEach
    void close() {
        director.close();
    }

    private Invoker<Greeter> chain(FakeProvider<Greeter> provider) {
        return FilterChain.provider(provider, director);
    }

    @Test
    void executes_beyondLimit_answersServerBusyAtOnce_withoutRunningTheService() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/com.example.Greeter?executes=2");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(2)) {
            threads.submit(() -> chain.invoke(Calls.greet("a")));
            threads.submit(() -> chain.invoke(Calls.greet("b")));
            assertThat(held.awaitHeld(2, AWAIT)).isTrue();
            assertThatThrownBy(() -> chain.invoke(Calls.greet("c")))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                    .hasMessage("Server busy: executions of method greet of dev.weft.rpc.protocol.Greeter: 2 "
                            + "(expected: below executes=2; not run, safe to retry)");
            assertThat(provider.calls()).isEqualTo(2);
            held.releaseAll();
            threads.awaitAll();
        }
        assertThat(chain.invoke(Calls.greet("d")).getValue()).isEqualTo("hello d");
    }

    @Test
    void executes_stress_busyCallsNeverRun_andNoMoreThanLimitRunAtOnce() throws Exception {
        PeakInFlight peak = PeakInFlight.around(GreeterProviders.working(Duration.ofMillis(1)));
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?executes=4").answering(peak);
        Invoker<Greeter> chain = chain(provider);
        AtomicInteger answered = new AtomicInteger();
        AtomicInteger busy = new AtomicInteger();
        try (Concurrently threads = new Concurrently(16)) {
            for (int t = 0; t < 16; t++) {
                threads.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        try {
                            assertThat(chain.invoke(Calls.greet("ada")).getValue()).isEqualTo("hello ada");
                            answered.incrementAndGet();
                        } catch (RpcException e) {
                            assertThat(e.isNotProcessed()).isTrue();
                            busy.incrementAndGet();
                        }
                    }
                    return null;
                });
            }
            threads.awaitAll();
        }
        assertThat(answered.get() + busy.get()).isEqualTo(640);
        assertThat(provider.calls()).isEqualTo(answered.get());
        assertThat(peak.peak()).isBetween(1, 4);
        assertThat(provider.inFlight()).isZero();
        assertThat(chain.invoke(Calls.greet("ada")).getValue()).isEqualTo("hello ada");
    }

    @Test
    void methodExecutesZero_liftsTheLimitForThatMethodOnly() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?executes=1&greet.executes=0");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(4)) {
            for (int i = 0; i < 3; i++) {
                threads.submit(() -> chain.invoke(Calls.greet("a")));
            }
            threads.submit(() -> chain.invoke(Calls.read("a")));
            assertThat(held.awaitHeld(4, AWAIT)).as("three greet and one read running at once").isTrue();
            assertThatThrownBy(() -> chain.invoke(Calls.read("b"))).hasMessageContaining("expected: below executes=1;");
            held.releaseAll();
            threads.awaitAll();
        }
        assertThat(provider.calls()).isEqualTo(4);
    }

    @Test
    void executes_methodKeyOverridesServiceKey() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?executes=10&greet.executes=1");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(3)) {
            threads.submit(() -> chain.invoke(Calls.greet("a")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            assertThatThrownBy(() -> chain.invoke(Calls.greet("b"))).hasMessageContaining("expected: below executes=1;");
            threads.submit(() -> chain.invoke(Calls.read("a")));
            threads.submit(() -> chain.invoke(Calls.read("b")));
            assertThat(held.awaitHeld(3, AWAIT)).as("held greet and both reads").isTrue();
            held.releaseAll();
            threads.awaitAll();
        }
    }

    @Test
    void executes_countReturns_onThrownAndAnsweredExceptions() {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?executes=1");
        Invoker<Greeter> chain = chain(provider);
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> chain.invoke(Calls.farewell("ada"))).hasMessage("connection reset");
            assertThat(chain.invoke(Calls.read("/tmp")).getException()).hasMessage("disk");
        }
        assertThat(chain.invoke(Calls.greet("ada")).getValue()).isEqualTo("hello ada");
    }

    @Test
    void executes_eachExportedInvokerHasItsOwnCount() throws Exception {
        FakeProvider<Greeter> first = GreeterProviders.at("injvm://127.0.0.1/com.example.Greeter?executes=1");
        HeldCalls firstHeld = first.holdCalls();
        FakeProvider<Greeter> second = GreeterProviders.at("injvm://127.0.0.1/com.example.Greeter?executes=1");
        Invoker<Greeter> firstChain = chain(first);
        try (Concurrently threads = new Concurrently(1)) {
            threads.submit(() -> firstChain.invoke(Calls.greet("held")));
            assertThat(firstHeld.awaitHeld(1, AWAIT)).isTrue();
            assertThatThrownBy(() -> firstChain.invoke(Calls.greet("ada"))).hasMessageStartingWith("Server busy");
            assertThat(chain(second).invoke(Calls.greet("ada")).getValue()).isEqualTo("hello ada");
            firstHeld.releaseAll();
            threads.awaitAll();
        }
    }
}
