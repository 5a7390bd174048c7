package dev.weft.rpc.it.zk;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.common.URL;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lazy=true} with 2,000 providers of one service in ZooKeeper: the consumer lists them all
 * and opens no connection until a call picks one, then exactly one. The providers are one real
 * {@code weft} server reached through four counting forwarders, 500 provider URLs per forwarder
 * (told apart by a parameter), so the connections the consumer opens are counted where they arrive.
 */
class LazyConnectionsTest {

    private static final int PROVIDERS = 2_000;
    private static final int FORWARDERS = 4;

    @Test
    void lazyConsumerOfTwoThousandProviders_opensNoConnectionUntilACallPicksOne() throws Exception {
        List<CountingTcpProxy> proxies = new ArrayList<>();
        try (TestingServer zookeeper = EmbeddedZooKeeper.start();
                Weft provider = Weft.builder().application("provider").build();
                CuratorFramework operator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(),
                        new RetryOneTime(100))) {
            URL exported = provider.export(GreetingService.class, new NamedGreeter("p"), "weft://127.0.0.1:0")
                    .getInvoker().getUrl();
            for (int i = 0; i < FORWARDERS; i++) {
                proxies.add(CountingTcpProxy.to(exported.getPort()));
            }
            operator.start();
            assertThat(operator.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
            String folder = "/weft/" + GreetingService.class.getName() + "/providers";
            operator.create().creatingParentsIfNeeded().forPath(folder);
            List<CuratorOp> batch = new ArrayList<>();
            for (int i = 0; i < PROVIDERS; i++) {
                URL copy = exported.withPort(proxies.get(i % FORWARDERS).port()).addParameter("instance", i);
                batch.add(operator.transactionOp().create()
                        .forPath(folder + "/" + URLEncoder.encode(copy.toFullString(), StandardCharsets.UTF_8)));
                if (batch.size() == 100) {
                    operator.transaction().forOperations(batch);
                    batch.clear();
                }
            }

            try (Weft consumer = Weft.builder().registry(EmbeddedZooKeeper.registryUrl(zookeeper))
                    .application("shop").build();
                    DirectoryProbe probe = DirectoryProbe.open(EmbeddedZooKeeper.registryUrl(zookeeper))) {
                // The first list holds every provider (they were all written before); referring 2,000
                // on a busy machine takes a while, so the wait for a first provider (timeout) is long.
                GreetingService service = consumer.refer(GreetingService.class, "lazy=true&timeout=120000");
                Await.until(() -> probe.directory().getInvokers().size() == PROVIDERS, Duration.ofSeconds(120),
                        "every provider listed");
                assertThat(totalAccepted(proxies)).as("connections before any call").isZero();

                assertThat(service.sayHello("ada")).isEqualTo("p:hello ada");
                assertThat(totalAccepted(proxies)).as("connections after one call").isEqualTo(1);
            }
        } finally {
            for (CountingTcpProxy proxy : proxies) {
                proxy.close();
            }
        }
    }

    private static int totalAccepted(List<CountingTcpProxy> proxies) {
        return proxies.stream().mapToInt(CountingTcpProxy::accepted).sum();
    }
}
