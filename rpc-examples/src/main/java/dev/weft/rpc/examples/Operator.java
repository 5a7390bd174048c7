package dev.weft.rpc.examples;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Writes override rules the way an operator does with {@code zkCli}: a persistent node under
 * {@code /weft/<interface>/configurators} whose name is the rule's URL, form-encoded once
 * (docs/rpc-registry-zookeeper.md). It has its own ZooKeeper session, separate from every
 * provider's and the consumer's. Not thread-safe: the run's main thread uses it.
 */
final class Operator implements AutoCloseable {

    static final String SERVICE = GreetingService.class.getName();
    static final String CONFIGURATORS = "/weft/" + SERVICE + "/configurators";
    private static final int CONNECT_SECONDS = 10;

    private final CuratorFramework client;

    Operator(String connectString) throws InterruptedException {
        Objects.requireNonNull(connectString, "connectString");
        client = CuratorFrameworkFactory.builder().connectString(connectString)
                .retryPolicy(new ExponentialBackoffRetry(100, 5)).sessionTimeoutMs(30_000).build();
        client.start();
        if (!client.blockUntilConnected(CONNECT_SECONDS, TimeUnit.SECONDS)) {
            client.close();
            throw new IllegalStateException("--zookeeper " + connectString
                    + ": no connection in " + CONNECT_SECONDS + " s (expected: a reachable ZooKeeper)");
        }
    }

    /** The rule forcing {@code greet} to answer {@code degraded} on every consumer. */
    static String mockRule() {
        return "override://0.0.0.0/" + SERVICE + "?category=configurators&dynamic=false"
                + "&greet.mock=force:return degraded";
    }

    /** A rule setting {@code key=value} on the provider at 127.0.0.1:{@code port}. */
    static String providerRule(int port, String key, String value) {
        return "override://127.0.0.1:" + port + "/" + SERVICE + "?category=configurators&dynamic=false&"
                + key + "=" + value;
    }

    /** The node an operator creates for {@code rule}. */
    static String nodeOf(String rule) {
        return CONFIGURATORS + "/" + URLEncoder.encode(rule, StandardCharsets.UTF_8);
    }

    /** Creates the rule's persistent node (and its parents). */
    void write(String rule) throws Exception {
        try {
            client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(nodeOf(rule));
        } catch (KeeperException.NodeExistsException alreadyThere) {
            // the rule is in place: what the operator wanted
        }
    }

    /** Deletes the rule's node. */
    void delete(String rule) throws Exception {
        try {
            client.delete().forPath(nodeOf(rule));
        } catch (KeeperException.NoNodeException alreadyGone) {
            // nothing to delete
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
