package dev.weft.rpc.spring.boot;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

import java.util.List;
import java.util.Map;

/** An embedded ZooKeeper on 127.0.0.1 with a plain client to look at it, as an operator would. */
final class TestZooKeeper implements AutoCloseable {

    private final TestingServer server;
    private final CuratorFramework client;

    TestZooKeeper() throws Exception {
        server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1,
                Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1"), true);
        client = CuratorFrameworkFactory.newClient(server.getConnectString(), 3_000, 1_000, new RetryNTimes(3, 100));
        client.start();
        client.blockUntilConnected();
    }

    /** The registry URL for {@code weft.registry}. */
    String registry() {
        return "zookeeper://" + server.getConnectString() + "?session=3000";
    }

    /** The provider nodes registered for {@code service} now. */
    List<String> providers(Class<?> service) throws Exception {
        String path = "/weft/" + service.getName() + "/providers";
        return client.checkExists().forPath(path) == null ? List.of() : client.getChildren().forPath(path);
    }

    @Override
    public void close() throws Exception {
        client.close();
        server.close();
    }
}
