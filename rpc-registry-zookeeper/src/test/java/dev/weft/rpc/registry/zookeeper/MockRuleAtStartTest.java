package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.MockClusterInvoker;
import dev.weft.rpc.mock.MockConfigurationException;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.registry.RegistryDirectory;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A consumer that starts while the real embedded ZooKeeper holds a {@code mock} override rule the
 * mock wrapper refuses starts without that rule, as a running consumer would leave it out, and its
 * calls reach the provider; a bad {@code mock} in the consumer's own URL still fails the join.
 */
class MockRuleAtStartTest {

    /** The service of these tests. */
    public interface Greeting {
        String sayHello(String name);
    }

    private static final String SERVICE = Greeting.class.getName();
    private static final String CONFIGURATORS = "/weft/" + URLEncoder.encode(SERVICE, StandardCharsets.UTF_8) + "/configurators/";
    private static final String CONSUMER = "consumer://127.0.0.1/" + SERVICE + "?application=shop&cluster=failfast";

    private final ExtensionDirector director = new ExtensionDirector(MockRuleAtStartTest.class.getClassLoader());
    private final List<RegistryDirectory<Greeting>> directories = new ArrayList<>();
    private TestingServer server;
    private CuratorFramework operator;
    private ZookeeperRegistry providerSide;
    private ZookeeperRegistry consumerSide;
    private Exporter<Greeting> exporter;

    @BeforeEach
    void start() throws Exception {
        server = EmbeddedZooKeeper.server();
        operator = EmbeddedZooKeeper.operator(server.getConnectString());
        providerSide = new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(server.getConnectString(), ""));
        consumerSide = new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(server.getConnectString(), ""));
        URL providerUrl = URL.valueOf("injvm://127.0.0.1/" + SERVICE + "?application=greeter");
        FakeProvider<Greeting> provider = FakeProvider.at(Greeting.class, providerUrl).answering(Reply.value("hello"));
        exporter = director.getExtensionLoader(Protocol.class).getAdaptiveExtension().export(provider);
        providerSide.register(providerUrl);
    }

    @AfterEach
    void stop() throws Exception {
        directories.forEach(RegistryDirectory::destroy);
        exporter.unexport();
        consumerSide.close();
        providerSide.close();
        director.close();
        operator.close();
        server.close();
    }

    @Test
    void consumerStartingWhileARefusedMockRuleIsInZooKeeper_startsWithoutIt_andCallsReachTheProvider() throws Exception {
        String bad = push("sayHello.mock=force:return {not json");
        push("timeout=700");
        RegistryDirectory<Greeting> directory = directory(CONSUMER);
        Await.until("the rules applied before the consumer joins",
                () -> "force:return {not json".equals(directory.getUrl().getParameter("sayHello.mock"))
                        && directory.getInvokers().size() == 1, directory::toString);
        long problems = directory.getProblemCount();

        Invoker<Greeting> invoker = director.getExtensionLoader(Cluster.class).getAdaptiveExtension().join(directory);

        assertThat(invoker.invoke(sayHello()).getValue()).isEqualTo("hello");
        assertThat(directory.getUrl().hasParameter("sayHello.mock")).isFalse();
        assertThat(directory.getUrl().getParameter("timeout")).as("the good rule beside it").isEqualTo("700");
        assertThat(directory.getProblemCount()).as("the refused rule reported").isGreaterThan(problems);
        assertThat(((MockClusterInvoker<Greeting>) invoker).getRejectedUpdates()).isPositive();

        operator.delete().forPath(bad);
        push("sayHello.mock=force:return fixed");
        Await.until("a good mock rule applied", () -> "force:return fixed".equals(directory.getUrl().getParameter("sayHello.mock")),
                directory::toString);
        assertThat(invoker.invoke(sayHello()).getValue()).isEqualTo("fixed");
        invoker.destroy();
    }

    @Test
    void badMockInTheConsumersOwnUrl_failsTheJoin_whileZooKeeperHoldsRules() throws Exception {
        push("timeout=700");
        RegistryDirectory<Greeting> directory = directory(CONSUMER + "&sayHello.mock=force:return {not json");
        Await.until("the rule applied", () -> "700".equals(directory.getUrl().getParameter("timeout")), directory::toString);

        assertThatThrownBy(() -> director.getExtensionLoader(Cluster.class).getAdaptiveExtension().join(directory))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessageStartingWith("sayHello.mock: force:return {not json (expected: ");
    }

    private RegistryDirectory<Greeting> directory(String consumerUrl) {
        RegistryDirectory<Greeting> directory = RegistryDirectory.builder(Greeting.class, URL.valueOf(consumerUrl), consumerSide)
                .director(director).build();
        directories.add(directory);
        return directory;
    }

    /** Writes an override node as an operator would, returning its path. */
    private String push(String query) throws Exception {
        URL rule = URL.valueOf("override://0.0.0.0/" + SERVICE + "?category=configurators&dynamic=false&" + query);
        String path = CONFIGURATORS + NodeNames.encode(rule);
        operator.create().creatingParentsIfNeeded().forPath(path);
        return path;
    }

    private static RpcInvocation sayHello() {
        return new RpcInvocation("sayHello", new Class<?>[] {String.class}, new Object[] {"ada"}, String.class, String.class);
    }
}
