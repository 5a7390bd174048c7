package dev.weft.rpc.it.e2e;

import dev.weft.rpc.cluster.StaticDirectory;
import dev.weft.rpc.testing.FakeProvider;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Closing the {@code ExtensionDirector} stops every thread Weft started for it ({@code weft-*}). */
class DirectorCloseTest {

    private static final long WAIT_NANOS = 10_000_000_000L;

    @Test
    void close_afterFailbackAndForkingWork_leavesNoLiveWeftThread() throws Exception {
        WeftStack stack = new WeftStack();
        List<FakeProvider<Greeter>> providers = stack.providers("", "", "");
        Greeter forking = stack.consumer(new StaticDirectory<>(
                WeftStack.consumerUrl("cluster=forking&forks=3&timeout=5000"), FailureAndMockTest.list(providers)));
        for (int i = 0; i < 20; i++) {
            assertThat(forking.greet("x")).matches("[abc]: hello x");
        }
        providers.forEach(p -> stack.setDown(p, true));
        Greeter failback = stack.consumer(new StaticDirectory<>(
                WeftStack.consumerUrl("cluster=failback&failback.period=10&retries=1000"), FailureAndMockTest.list(providers)));
        for (int i = 0; i < 5; i++) {
            assertThat(failback.greet("x")).isNull();
        }
        // Both strategies now own threads: retries are pending and forks ran on the pool.
        assertThat(weftThreads()).as("threads started by Weft before close")
                .anyMatch(t -> t.getName().startsWith("weft-failback"))
                .anyMatch(t -> t.getName().startsWith("weft-forking"));

        stack.close();

        long deadline = System.nanoTime() + WAIT_NANOS;
        List<Thread> alive = weftThreads();
        while (!alive.isEmpty() && System.nanoTime() < deadline) {
            for (Thread thread : alive) {
                thread.join(100);
            }
            alive = weftThreads();
        }
        assertThat(alive.stream().map(Thread::getName).collect(Collectors.toList()))
                .as("live weft-* threads 10 s after ExtensionDirector.close()").isEmpty();
        assertThat(stack.director.isClosed()).isTrue();
    }

    private static List<Thread> weftThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .filter(t -> t.getName().startsWith("weft-"))
                .collect(Collectors.toList());
    }
}
