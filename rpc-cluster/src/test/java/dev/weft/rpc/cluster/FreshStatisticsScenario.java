package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.loadbalance.InvokerStats;
import dev.weft.rpc.spi.ExtensionDirector;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static dev.weft.rpc.cluster.FakeInvoker.blockUntil;
import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.hello;

/**
 * Runs inside a fresh class loader (so {@link InvokerStats}' JVM-wide state starts clean): calls
 * through {@code random}, which reads no statistics, then through {@code leastactive}, and reports
 * what was recorded at each step.
 */
public final class FreshStatisticsScenario implements Supplier<Map<String, Object>> {

    @Override
    public Map<String, Object> get() {
        Map<String, Object> seen = new LinkedHashMap<>();
        FakeInvoker a = FakeInvoker.named("10.0.0.1");
        FakeInvoker b = FakeInvoker.named("10.0.0.2");
        try (ExtensionDirector director = new ExtensionDirector(FreshStatisticsScenario.class.getClassLoader())) {
            seen.put("anyTrackingAtStart", InvokerStats.anyTracking());
            Invoker<Greeting> random = director.getExtensionLoader(Cluster.class).getExtension("failover")
                    .join(directory("loadbalance=random", a, b));
            for (int i = 0; i < 20; i++) {
                random.invoke(hello());
            }
            seen.put("callsUnderRandom", a.calls() + b.calls());
            seen.put("anyTrackingAfterRandom", InvokerStats.anyTracking());

            Invoker<Greeting> leastActive = director.getExtensionLoader(Cluster.class).getExtension("failover")
                    .join(directory("loadbalance=leastactive", a, b));
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            a.then(blockUntil(entered, release));
            b.then(blockUntil(entered, release));
            ExecutorService caller = Executors.newSingleThreadExecutor();
            try {
                caller.submit(() -> leastActive.invoke(hello()));
                entered.await(5, TimeUnit.SECONDS);
                seen.put("anyTrackingUnderLeastActive", InvokerStats.anyTracking());
                seen.put("inFlightDuringTheCall", InvokerStats.of(a).inFlight() + InvokerStats.of(b).inFlight());
                release.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } finally {
                caller.shutdown();
            }
        }
        return seen;
    }
}
