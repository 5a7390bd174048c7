package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** Embedded ZooKeeper servers for tests, listening on 127.0.0.1 only, with short ticks. */
final class EmbeddedZooKeeper {

    /** Server tick: sessions may last 1-20 ticks. */
    static final int TICK_MS = 200;
    /** Session timeout the test registries ask for (the server allows up to 20 ticks). */
    static final int SESSION_MS = 3_000;
    static final int CONNECT_TIMEOUT_MS = 1_000;

    private EmbeddedZooKeeper() {
    }

    /** Sessions up to a minute are allowed, so tests can outlive a session they expire by hand. */
    static final int MAX_SESSION_MS = 60_000;

    static InstanceSpec spec(int serverId) {
        return new InstanceSpec(null, -1, -1, -1, true, serverId, TICK_MS, -1,
                Map.of("clientPortAddress", "127.0.0.1", "maxSessionTimeout", Integer.toString(MAX_SESSION_MS)),
                "127.0.0.1");
    }

    static TestingServer server() throws Exception {
        return new TestingServer(spec(-1), true);
    }

    static TestingCluster cluster(int size) {
        return new TestingCluster(IntStream.rangeClosed(1, size).mapToObj(EmbeddedZooKeeper::spec).toList());
    }

    /** {@code zookeeper://host:port?session=..&timeout=..} for {@code connectString} (first member, others as backup). */
    static URL registryUrl(String connectString, String extraQuery) {
        List<String> members = List.of(connectString.split(","));
        String backup = members.size() > 1 ? "&backup=" + String.join(",", members.subList(1, members.size())) : "";
        return URL.valueOf("zookeeper://" + members.get(0) + "?session=" + SESSION_MS + "&timeout=" + CONNECT_TIMEOUT_MS
                + backup + (extraQuery.isEmpty() ? "" : "&" + extraQuery));
    }

    /** A plain Curator client, as an operator's zkCli would be: no authentication. */
    static CuratorFramework operator(String connectString) throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.newClient(connectString, SESSION_MS, CONNECT_TIMEOUT_MS,
                new RetryNTimes(3, 100));
        client.start();
        client.blockUntilConnected();
        return client;
    }
}
