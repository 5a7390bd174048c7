package dev.weft.rpc.it.zk;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.ResilienceStats;
import dev.weft.rpc.cluster.ServiceResilience;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.Registry;
import dev.weft.rpc.registry.RegistryDirectory;
import dev.weft.rpc.registry.RegistryFactory;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.Calls;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The resilience keys follow override rules written into a real embedded ZooKeeper, live: three
 * weft providers on loopback (the third one late: beyond the consumer's {@code timeout}, so its
 * calls fail as a retry would follow, or slow within it), a consumer whose {@link RegistryDirectory} and cluster
 * invoker the test holds, and an operator writing rules with a plain ZooKeeper client. A rule
 * with a bad value is refused when it arrives (counted as a problem of the directory) and the
 * last good settings keep serving.
 */
class ResilienceOverrideTest {

    private static final String SERVICE = GreetingService.class.getName();
    private static final String CONFIGURATORS = "/weft/" + SERVICE + "/configurators";
    private static final Duration SETTLE = Duration.ofSeconds(20);
    /**
     * The consumer's timeout where a late provider's calls must fail: several times what a healthy
     * call takes on a loaded 2-core machine, so that only the late provider's calls time out.
     */
    private static final int TIMEOUT_MILLIS = 600;
    /** How late the late provider answers: beyond {@link #TIMEOUT_MILLIS}, its calls fail with a timeout. */
    private static final long LATE_MILLIS = 2_000;
    /** How late the slow provider answers: within a 2 s timeout, slower than its peers. */
    private static final long SLOW_MILLIS = 400;

    /** Answers as {@link NamedGreeter}, {@code delayMillis} late (0: at once); counts calls. */
    static final class CountingGreeter implements GreetingService {
        final NamedGreeter named;
        final AtomicInteger calls = new AtomicInteger();
        volatile long delayMillis;

        CountingGreeter(String id) {
            named = new NamedGreeter(id);
        }

        @Override
        public String sayHello(String name) {
            calls.incrementAndGet();
            if (delayMillis > 0) {
                try {
                    Thread.sleep(delayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return named.sayHello(name);
        }

        @Override
        public String sayBye(String name) {
            return named.sayBye(name);
        }
    }

    private TestingServer zookeeper;
    private CuratorFramework operator;
    private final List<Weft> providers = new ArrayList<>();
    private final List<CountingGreeter> greeters = new ArrayList<>();
    private final List<URL> providerUrls = new ArrayList<>();
    private ExtensionDirector director;
    private Registry registry;
    private RegistryDirectory<GreetingService> directory;
    private Invoker<GreetingService> invoker;

    @BeforeEach
    void start() throws Exception {
        zookeeper = EmbeddedZooKeeper.start();
        String registryUrl = EmbeddedZooKeeper.registryUrl(zookeeper);
        for (String id : List.of("p1", "p2", "p3")) {
            Weft provider = Weft.builder().registry(registryUrl).application("provider-" + id).build();
            providers.add(provider);
            CountingGreeter greeter = new CountingGreeter(id);
            greeters.add(greeter);
            providerUrls.add(provider.export(GreetingService.class, greeter, "weft://127.0.0.1:0").getInvoker().getUrl());
        }
        operator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), 5_000, 2_000, new RetryNTimes(3, 100));
        operator.start();
        operator.blockUntilConnected();
    }

    /** Builds the consumer with {@code parameters}, as {@code Weft.refer} builds one, and waits for the three providers. */
    private void refer(String parameters) throws InterruptedException {
        director = new ExtensionDirector(ResilienceOverrideTest.class.getClassLoader());
        registry = director.getExtensionLoader(RegistryFactory.class).getAdaptiveExtension()
                .getRegistry(URL.valueOf(EmbeddedZooKeeper.registryUrl(zookeeper)));
        directory = RegistryDirectory.builder(GreetingService.class, URL.valueOf("consumer://127.0.0.1/" + SERVICE
                        + "?interface=" + SERVICE + "&application=shop&side=consumer&" + parameters), registry)
                .director(director).build();
        Await.until(() -> directory.getInvokers().size() == 3, SETTLE, "three providers in " + directory);
        // a provider is available once it has answered its connection's first PING
        Await.until(() -> directory.getInvokers().stream().allMatch(Invoker::isAvailable), SETTLE,
                "three providers available in " + directory);
        invoker = director.getExtensionLoader(Cluster.class).getExtension("failover").join(directory);
    }

    @AfterEach
    void stop() throws Exception {
        try {
            if (operator != null) {
                operator.close();
            }
            if (invoker != null) {
                invoker.destroy();
            }
            if (registry != null) {
                registry.close();
            }
            if (director != null) {
                director.close();
            }
            providers.forEach(Weft::close);
        } finally {
            zookeeper.close();
        }
    }

    private ServiceResilience resilience() {
        return ResilienceStats.of(director).service(SERVICE);
    }

    /** One call of {@code sayHello}: its answer, or null when it failed. */
    private String call() {
        try {
            Result result = Calls.invoke(invoker, new RpcInvocation(GreetingService.class.getMethod("sayHello", String.class),
                    new Object[] {"ada"}));
            return (String) result.recreate();
        } catch (RpcException e) {
            return null;
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    private String writeRule(String parameters) throws Exception {
        String node = CONFIGURATORS + "/" + URLEncoder.encode("override://0.0.0.0/" + SERVICE
                + "?category=configurators&dynamic=false&" + parameters, StandardCharsets.UTF_8);
        operator.create().creatingParentsIfNeeded().forPath(node, new byte[0]);
        return node;
    }

    @Test
    void outlierFailures_followTheRuleLive_aBadValueIsRefusedOnArrival_andDeletingTheRuleBringsTheProviderBack() throws Exception {
        greeters.get(2).delayMillis = LATE_MILLIS;
        refer("retries=2&timeout=" + TIMEOUT_MILLIS + "&loadbalance=roundrobin&outlier-failures=0&outlier-ejection=10m");
        for (int i = 0; i < 9; i++) {
            assertThat(call()).as("failover around the slow provider").isNotNull();
        }
        assertThat(greeters.get(2).calls.get()).as("no ejection while outlier-failures=0").isGreaterThanOrEqualTo(3);
        assertThat(directory.state().ejected()).isEmpty();

        String rule = writeRule("outlier-failures=2");
        Await.until(() -> "2".equals(directory.getUrl().getParameter("outlier-failures")), SETTLE, "the rule in " + directory);
        Await.until(() -> call() != null && directory.state().ejected().size() == 1, SETTLE, "the slow provider ejected");
        assertThat(directory.state().ejected().get(0).getUrl().getPort()).isEqualTo(providerUrls.get(2).getPort());
        assertThat(resilience().ejections()).isEqualTo(1);
        int slowCallsWhenEjected = greeters.get(2).calls.get();
        for (int i = 0; i < 20; i++) {
            assertThat(call()).isNotNull();
        }
        assertThat(greeters.get(2).calls.get()).as("no call reaches the ejected provider").isEqualTo(slowCallsWhenEjected);

        long problems = directory.getProblemCount();
        writeRule("outlier-failures=-1&priority=9");
        Await.until(() -> directory.getProblemCount() > problems, SETTLE, "the bad rule refused by " + directory);
        assertThat(directory.getUrl().getParameter("outlier-failures")).as("the last good settings serve").isEqualTo("2");
        assertThat(directory.state().ejected()).hasSize(1);

        operator.delete().forPath(rule);
        Await.until(() -> call() != null && directory.state().ejected().isEmpty(), SETTLE, "the provider back once ejection is off");
        Await.until(() -> call() != null && greeters.get(2).calls.get() > slowCallsWhenEjected, SETTLE, "calls reaching it again");
    }

    @Test
    void retryBudget_followsTheRuleLive_aSpentBudgetFailsCallsWithTheirLastError_andCountsThem() throws Exception {
        greeters.get(2).delayMillis = LATE_MILLIS;
        refer("retries=2&timeout=" + TIMEOUT_MILLIS + "&loadbalance=roundrobin&outlier-failures=0&retry-budget=1");
        for (int i = 0; i < 9; i++) {
            assertThat(call()).as("budget off: every call fails over").isNotNull();
        }
        assertThat(resilience().budgetRefusals()).isZero();

        String rule = writeRule("retry-budget=0&retry-budget-min=0");
        Await.until(() -> "0".equals(directory.getUrl().getParameter("retry-budget-min")), SETTLE, "the rule in " + directory);
        int failed = 0;
        for (int i = 0; i < 9; i++) {
            failed += call() == null ? 1 : 0;
        }
        assertThat(failed).as("the calls landing on the slow provider may not retry").isBetween(2, 4);
        assertThat(resilience().budgetRefusals()).isEqualTo(failed);

        long problems = directory.getProblemCount();
        writeRule("retry-budget=2&priority=9");
        Await.until(() -> directory.getProblemCount() > problems, SETTLE, "the bad rule refused by " + directory);
        assertThat(directory.getUrl().getParameter("retry-budget")).isEqualTo("0");

        operator.delete().forPath(rule);
        Await.until(() -> "1".equals(directory.getUrl().getParameter("retry-budget")), SETTLE, "the rule deleted in " + directory);
        for (int i = 0; i < 9; i++) {
            assertThat(call()).as("budget off again").isNotNull();
        }
    }

    @Test
    void outlierLatency_followsTheRuleLive_ejectingTheProviderSlowerThanThreeTimesItsPeers() throws Exception {
        refer("retries=2&timeout=2000&loadbalance=roundrobin");
        greeters.get(2).delayMillis = SLOW_MILLIS; // slow, within the timeout
        for (int i = 0; i < 30; i++) {
            assertThat(call()).isNotNull();
        }
        assertThat(directory.state().ejected()).as("outlier-latency is off by default").isEmpty();

        writeRule("outlier-latency=3");
        Await.until(() -> "3".equals(directory.getUrl().getParameter("outlier-latency")), SETTLE, "the rule in " + directory);
        // latency is timed from the rule on: the slow provider needs 20 timed calls (about 8 s at 400 ms)
        Await.until(() -> call() != null && directory.state().ejected().size() == 1, Duration.ofSeconds(60),
                "the slow provider ejected by latency");
        assertThat(directory.state().ejected().get(0).getUrl().getPort()).isEqualTo(providerUrls.get(2).getPort());
    }
}
