package dev.weft.rpc.it.zk;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.filter.ExecuteLimits;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The provider follows the {@code executes} override rules addressed to it, live: one weft
 * provider on loopback exported with the {@code executes} filter in its chain but no limit
 * ({@code filter=executes}) into a real embedded ZooKeeper,
 * a consumer calling it, and an operator writing rules with a plain ZooKeeper client. One call is
 * held in the provider; a second one runs while there is no limit and is answered "busy" once a
 * rule sets {@code executes=1}. A rule with a bad value is refused by the provider when it arrives
 * and the last good limit keeps serving.
 */
class ProviderExecutesOverrideTest {

    private static final String SERVICE = GreetingService.class.getName();
    private static final String CONFIGURATORS = "/weft/" + SERVICE + "/configurators";
    private static final Duration SETTLE = Duration.ofSeconds(20);

    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private TestingServer zookeeper;
    private CuratorFramework operator;
    private Weft provider;
    private Weft consumer;
    private URL exported;
    private GreetingService greeter;
    private final ExecutorService holder = Executors.newSingleThreadExecutor();

    /** Holds {@code sayHello("hold")} until released; answers every other call at once. */
    private final class HoldingGreeter implements GreetingService {
        @Override
        public String sayHello(String name) {
            if (name.equals("hold")) {
                held.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
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

    @BeforeEach
    void start() throws Exception {
        zookeeper = EmbeddedZooKeeper.start();
        String registryUrl = EmbeddedZooKeeper.registryUrl(zookeeper);
        provider = Weft.builder().registry(registryUrl).application("greeter").build();
        exported = provider.export(GreetingService.class, new HoldingGreeter(), "weft://127.0.0.1:0?filter=executes").getInvoker().getUrl();
        consumer = Weft.builder().registry(registryUrl).application("shop").build();
        greeter = consumer.refer(GreetingService.class, "cluster=failfast&timeout=10000");
        operator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), 5_000, 2_000, new RetryNTimes(3, 100));
        operator.start();
        operator.blockUntilConnected();
    }

    @AfterEach
    void stop() throws Exception {
        release.countDown();
        holder.shutdownNow();
        try {
            if (operator != null) {
                operator.close();
            }
            if (consumer != null) {
                consumer.close();
            }
            if (provider != null) {
                provider.close();
            }
        } finally {
            zookeeper.close();
        }
    }

    private ExecuteLimits limits() {
        return ExecuteLimits.of(provider.director());
    }

    private String writeRule(String hostAndPort, String parameters) throws Exception {
        String node = CONFIGURATORS + "/" + URLEncoder.encode("override://" + hostAndPort + "/" + SERVICE
                + "?category=configurators&dynamic=false&" + parameters, StandardCharsets.UTF_8);
        operator.create().creatingParentsIfNeeded().forPath(node, new byte[0]);
        return node;
    }

    /** Whether a call made while another one is held in the provider is answered "busy". */
    private boolean answeredBusy() {
        try {
            greeter.sayHello("probe");
            return false;
        } catch (RpcException e) {
            return e.isNotProcessed();
        }
    }

    @Test
    void executes_followsARuleAddressedToTheProvider_aBadValueIsRefused_andTheLastGoodLimitKeepsServing() throws Exception {
        Future<String> holding = holder.submit(() -> greeter.sayHello("hold"));
        assertThat(held.await(SETTLE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(greeter.sayHello("probe")).as("no limit before any rule").isEqualTo("hello probe");

        String limit = writeRule("0.0.0.0:" + exported.getPort(), "executes=1");
        Await.until(this::answeredBusy, SETTLE, "a second call answered busy under the rule executes=1");
        long busy = limits().busyAnswers();
        assertThat(busy).isPositive();

        String bad = writeRule("0.0.0.0:" + exported.getPort(), "executes=soon&priority=5");
        Await.until(() -> limits().rulesRefused() > 0, SETTLE, "the bad rule refused by the provider");
        assertThat(answeredBusy()).as("the last good limit, executes=1, keeps serving").isTrue();
        assertThat(limits().busyAnswers()).isGreaterThan(busy);

        operator.delete().forPath(bad);
        operator.delete().forPath(limit);
        Await.until(() -> !answeredBusy(), SETTLE, "no limit once the rules are deleted");

        writeRule("0.0.0.0:0", "side=provider&application=greeter&sayHello.executes=auto");
        Await.until(() -> {
            greeter.sayHello("probe"); // under the adaptive limit's initial 20: answered
            return limits().adaptiveLimits().containsKey(SERVICE + "#sayHello");
        }, SETTLE,
                "an adaptive limit for sayHello under a side=provider rule");
        release.countDown();
        assertThat(holding.get(SETTLE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("hello hold");
        assertThat(greeter.sayHello("after")).isEqualTo("hello after");
    }

    @Test
    void aRuleForAnotherApplicationOrPort_isNotAppliedByTheProvider() throws Exception {
        Future<String> holding = holder.submit(() -> greeter.sayHello("hold"));
        assertThat(held.await(SETTLE.toSeconds(), TimeUnit.SECONDS)).isTrue();

        writeRule("0.0.0.0:" + (exported.getPort() + 1), "executes=1");
        writeRule("0.0.0.0:0", "side=provider&application=other&executes=1");
        writeRule("0.0.0.0:0", "executes=1"); // a consumer-side rule
        // a marker the provider does apply, written last: once it shows, the others arrived too
        writeRule("0.0.0.0:0", "side=provider&application=greeter&sayBye.executes=auto");
        Await.until(() -> {
            greeter.sayBye("x");
            return limits().adaptiveLimits().containsKey(SERVICE + "#sayBye");
        }, SETTLE, "the marker rule applied");

        assertThat(answeredBusy()).as("none of the other rules limits sayHello").isFalse();
        release.countDown();
        assertThat(holding.get(SETTLE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("hello hold");
    }
}
