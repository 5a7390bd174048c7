package dev.weft.rpc.loadbalance;

import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.FakeTicker;
import static dev.weft.rpc.loadbalance.Fixtures.ticker;
import static dev.weft.rpc.loadbalance.Fixtures.director;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static dev.weft.rpc.loadbalance.Fixtures.CONSUMER;
import static dev.weft.rpc.loadbalance.Fixtures.call;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A discrete-event simulation on a fake clock: 30 clients call back to back through one balancer
 * into 10 providers, one of which answers 10x slower (10 ms instead of 1 ms). The statistics are
 * recorded exactly as the cluster does ({@code startCall} before, {@code endCall} after: timed
 * only once a latency-reading balancer has asked for it).
 */
class SimulatedClusterTest {

    private static final int PROVIDERS = 10;
    private static final int CLIENTS = 30;
    private static final int CALLS = 30_000;
    private static final long FAST = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long SLOW = 10 * FAST;

    private record Completion(long at, long started, Invoker<FakeService> invoker) {
    }

    /** Share of all calls that went to the slow provider. */
    private static double slowShare(String name) {
        FakeTicker time = ticker();
        ExtensionDirector director = director(time);
        CallStats stats = CallStats.of(director);
        Random seeded = new Random(99);
        LoadBalance balance = switch (name) {
            case "random" -> new RandomLoadBalance(() -> seeded);
            case "leastactive" -> new LeastActiveLoadBalance(() -> seeded);
            case "shortestresponse" -> new ShortestResponseLoadBalance(() -> seeded);
            case "p2c" -> new P2cLoadBalance(() -> seeded);
            default -> throw new IllegalArgumentException(name);
        };
        List<Invoker<FakeService>> providers = Fixtures.plain(PROVIDERS);
        Picker<FakeService> picker = balance.picker(providers, CONSUMER, "m", stats);
        Invoker<FakeService> slow = providers.get(3);
        Map<Invoker<FakeService>, Integer> calls = new HashMap<>();
        PriorityQueue<Completion> pending = new PriorityQueue<>((a, b) -> Long.compare(a.at(), b.at()));
        int started = 0;
        for (int client = 0; client < CLIENTS; client++) {
            pending.add(start(picker, stats, slow, time, calls));
            started++;
        }
        while (!pending.isEmpty()) {
            Completion done = pending.poll();
            time.advance(done.at() - time.read(), TimeUnit.NANOSECONDS);
            stats.get(done.invoker()).endCall(done.started(), true);
            if (started < CALLS) {
                pending.add(start(picker, stats, slow, time, calls));
                started++;
            }
        }
        for (Invoker<FakeService> provider : providers) {
            assertThat(stats.get(provider).inFlight()).isZero();
        }
        return calls.getOrDefault(slow, 0) / (double) CALLS;
    }

    private static Completion start(Picker<FakeService> picker, CallStats stats, Invoker<FakeService> slow,
                                    FakeTicker time, Map<Invoker<FakeService>, Integer> calls) {
        Invoker<FakeService> chosen = picker.pick(call("m"));
        calls.merge(chosen, 1, Integer::sum);
        long started = stats.get(chosen).startCall();
        long latency = chosen == slow ? SLOW : FAST;
        return new Completion(time.read() + latency, started, chosen);
    }

    @Test
    void random_sendsTheSlowProviderItsFullShare() {
        assertThat(slowShare("random")).isBetween(0.09, 0.11);
    }

    @Test
    void leastActive_sendsTheSlowProviderWellUnderItsShare() {
        assertThat(slowShare("leastactive")).isLessThan(0.05);
    }

    @Test
    void shortestResponse_sendsTheSlowProviderWellUnderItsShare() {
        assertThat(slowShare("shortestresponse")).isLessThan(0.05);
    }

    @Test
    void p2c_sendsTheSlowProviderWellUnderItsShare() {
        assertThat(slowShare("p2c")).isLessThan(0.05);
    }
}
