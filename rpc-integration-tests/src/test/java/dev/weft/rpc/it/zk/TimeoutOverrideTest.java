package dev.weft.rpc.it.zk;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An operator's {@code timeout} override in ZooKeeper becomes the deadline on the wire of calls
 * to a provider the consumer already uses, over the connection it already has (counted by a
 * forwarder in front of the provider); deleting the override restores the consumer's own
 * {@code timeout}.
 */
class TimeoutOverrideTest {

    /** How long the provider takes for {@code slow}: within the consumer's timeout, beyond the override's. */
    private static final long SLOW_MILLIS = 1_000;
    /** Loose bound for a 200 ms deadline on two busy cores. */
    private static final long WELL_BEFORE_SLOW_MILLIS = 900;

    /** Answers at once, except for the name {@code slow}, which takes {@link #SLOW_MILLIS}. */
    static final class SlowOnRequest implements GreetingService {
        @Override
        public String sayHello(String name) {
            if (name.equals("slow")) {
                try {
                    Thread.sleep(SLOW_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return "hello " + name;
        }

        @Override
        public String sayBye(String name) {
            return "bye " + name;
        }
    }

    /** One call's outcome and how long it took. */
    private record Outcome(String answer, RpcException failure, long millis) {

        boolean timedOutEarly() {
            return failure != null && failure.isTimeout() && millis < WELL_BEFORE_SLOW_MILLIS;
        }
    }

    @Test
    void timeoutOverride_becomesTheCallDeadline_overTheSameConnection_andDeletingItRestoresTheConsumers() throws Exception {
        try (TestingServer zookeeper = EmbeddedZooKeeper.start();
                Weft provider = Weft.builder().application("provider").build();
                CuratorFramework operator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(),
                        new RetryOneTime(100))) {
            URL exported = provider.export(GreetingService.class, new SlowOnRequest(), "weft://127.0.0.1:0")
                    .getInvoker().getUrl();
            try (CountingTcpProxy proxy = CountingTcpProxy.to(exported.getPort());
                    Weft consumer = Weft.builder().registry(EmbeddedZooKeeper.registryUrl(zookeeper))
                            .application("shop").build()) {
                operator.start();
                assertThat(operator.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
                String service = "/weft/" + URLEncoder.encode(GreetingService.class.getName(), StandardCharsets.UTF_8);
                operator.create().creatingParentsIfNeeded().forPath(service + "/providers/"
                        + URLEncoder.encode(exported.withPort(proxy.port()).toFullString(), StandardCharsets.UTF_8));

                GreetingService greeter = consumer.refer(GreetingService.class, "timeout=5000&retries=0");
                Outcome before = call(greeter);
                assertThat(before.answer()).as("slow call within the consumer's 5000 ms").isEqualTo("hello slow");
                assertThat(proxy.accepted()).as("connections before the override").isEqualTo(1);

                String override = "override://0.0.0.0/" + GreetingService.class.getName()
                        + "?category=configurators&dynamic=false&timeout=200";
                String rule = service + "/configurators/" + URLEncoder.encode(override, StandardCharsets.UTF_8);
                operator.create().creatingParentsIfNeeded().forPath(rule);

                AtomicReference<Outcome> overridden = new AtomicReference<>();
                Await.until(() -> {
                    overridden.set(call(greeter));
                    return overridden.get().timedOutEarly();
                }, Duration.ofSeconds(30), "a slow call failing with a timeout well before " + SLOW_MILLIS + " ms");
                assertThat(overridden.get().failure()).hasMessageContaining("200 ms");
                assertThat(greeter.sayBye("ada")).as("a quick call under the override").isEqualTo("bye ada");
                assertThat(proxy.accepted()).as("connections after the override").isEqualTo(1);

                operator.delete().forPath(rule);
                AtomicReference<Outcome> restored = new AtomicReference<>();
                Await.until(() -> {
                    restored.set(call(greeter));
                    return restored.get().answer() != null;
                }, Duration.ofSeconds(30), "a slow call answering again after the override is deleted");
                assertThat(restored.get().answer()).isEqualTo("hello slow");
                assertThat(proxy.accepted()).as("connections after deleting the override").isEqualTo(1);
            }
        }
    }

    private static Outcome call(GreetingService greeter) {
        long started = System.nanoTime();
        try {
            String answer = greeter.sayHello("slow");
            return new Outcome(answer, null, elapsedMillis(started));
        } catch (RpcException e) {
            return new Outcome(null, e, elapsedMillis(started));
        }
    }

    private static long elapsedMillis(long startedNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
    }
}
