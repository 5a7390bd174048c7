package dev.weft.rpc.bootstrap;

import dev.weft.rpc.protocol.filter.CallContext;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The caller's {@link CallContext} reaches every provider a call goes to, whichever threads the
 * cluster runs the call's attempts on.
 */
class WeftCallContextTest {

    /** What each provider saw of the caller's {@code trace-id}, by provider name. */
    private final Map<String, String> seen = new ConcurrentHashMap<>();
    /** When set, each provider waits (boundedly) until both have been called before it answers. */
    private volatile CountDownLatch forksTogether;

    private String export(Weft weft, String name) {
        CallContext context = CallContext.of(weft.director());
        Greeter greeter = who -> {
            seen.put(name, String.valueOf(context.get("trace-id")));
            CountDownLatch together = forksTogether;
            if (together != null) {
                // no fork answers before the other has arrived: a first answer would let the cluster
                // drop a fork still queued on its pool
                together.countDown();
                try {
                    together.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return name + ":" + who;
        };
        return "weft://127.0.0.1:" + weft.export(Greeter.class, greeter, "weft://127.0.0.1:0").getInvoker().getUrl().getPort();
    }

    @Test
    void forking_sendsTheCallersContext_toEveryFork() throws Exception {
        try (Weft weft = Weft.builder().application("shop").build()) {
            String urls = export(weft, "a") + "," + export(weft, "b");
            Greeter greeter = weft.refer(Greeter.class, "url=" + urls + "&cluster=forking&forks=2&timeout=5000");
            CallContext context = CallContext.of(weft.director());
            // a provider is available once it has answered the connection's first PING: until both
            // have, a fork goes only to the one that has
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (seen.size() < 2 && System.nanoTime() < deadline) {
                greeter.greet("warm-up");
                Thread.sleep(5);
            }
            assertThat(seen).as("both providers reached outside the scope").isEqualTo(Map.of("a", "null", "b", "null"));
            seen.clear();
            forksTogether = new CountDownLatch(2);

            try (CallContext.Scope scope = context.with("trace-id", "t-1")) {
                assertThat(greeter.greet("ada")).endsWith(":ada");
            }

            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (seen.size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(seen).as("each fork ran on a pool thread, not the caller's")
                    .isEqualTo(Map.of("a", "t-1", "b", "t-1"));
        }
    }

    @Test
    void failover_sendsTheCallersContext_andTheCallersInvocationKeepsNothingAfterTheScope() {
        try (Weft weft = Weft.builder().application("shop").build()) {
            Greeter greeter = weft.refer(Greeter.class, "url=" + export(weft, "a"));
            CallContext context = CallContext.of(weft.director());

            try (CallContext.Scope scope = context.with("trace-id", "t-2")) {
                greeter.greet("ada");
            }
            assertThat(seen).isEqualTo(Map.of("a", "t-2"));

            greeter.greet("bob");
            assertThat(seen).as("a call outside the scope carries no trace-id").isEqualTo(Map.of("a", "null"));
        }
    }
}
