package dev.weft.rpc.examples;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Writes override rules the way an operator does with {@code zkCli}: a persistent node under
 * {@code /weft/<interface>/configurators} whose name is the rule's URL, form-encoded once
 * (docs/rpc-registry-zookeeper.md). It has its own ZooKeeper session, separate from every
 * provider's and the consumer's. Not thread-safe: the run's main thread uses it.
 */
final class Operator implements AutoCloseable {

    static final String SERVICE = GreetingService.class.getName();
    static final String ROOT = "/weft";
    static final String SERVICE_ROOT = ROOT + "/" + SERVICE;
    static final String CONFIGURATORS = SERVICE_ROOT + "/configurators";
    private static final int CONNECT_SECONDS = 10;

    private final CuratorFramework client;
    private final Set<String> existedBefore;

    /**
     * Connects and notes which nodes of {@link #SERVICE_ROOT} (and {@link #ROOT}) exist already,
     * so that {@link #deleteCreated()} removes only what the run added.
     */
    Operator(String connectString) throws Exception {
        Objects.requireNonNull(connectString, "connectString");
        client = CuratorFrameworkFactory.builder().connectString(connectString)
                .retryPolicy(new ExponentialBackoffRetry(100, 5)).sessionTimeoutMs(30_000).build();
        client.start();
        if (!client.blockUntilConnected(CONNECT_SECONDS, TimeUnit.SECONDS)) {
            client.close();
            throw new IllegalStateException("--zookeeper " + connectString
                    + ": no connection in " + CONNECT_SECONDS + " s (expected: a reachable ZooKeeper)");
        }
        try {
            existedBefore = nodes();
        } catch (Exception | Error e) {
            client.close();
            throw e;
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

    /**
     * Deletes, deepest first, every node of {@link #SERVICE_ROOT} that did not exist when this
     * operator connected, then {@code SERVICE_ROOT} and {@link #ROOT} themselves if the run created
     * them: the rules, the registration a killed provider left behind, the category nodes. A node
     * that another client filled meanwhile (not empty) is left in place. Call it after the
     * providers and the consumer have closed.
     *
     * @return the paths deleted
     */
    List<String> deleteCreated() throws Exception {
        List<String> created = new ArrayList<>(nodes());
        created.removeAll(existedBefore);
        created.sort(Comparator.comparingLong((String path) -> path.chars().filter(c -> c == '/').count()).reversed());
        List<String> deleted = new ArrayList<>();
        for (String path : created) {
            try {
                client.delete().forPath(path);
                deleted.add(path);
            } catch (KeeperException.NoNodeException | KeeperException.NotEmptyException e) {
                // gone already (an ephemeral node whose session ended) or in use by another client
            }
        }
        return deleted;
    }

    /** {@link #ROOT} when it exists, and every node of {@link #SERVICE_ROOT}'s tree. */
    private Set<String> nodes() throws Exception {
        Set<String> nodes = new HashSet<>();
        if (client.checkExists().forPath(ROOT) != null) {
            nodes.add(ROOT);
            collect(SERVICE_ROOT, nodes);
        }
        return nodes;
    }

    private void collect(String path, Set<String> nodes) throws Exception {
        List<String> children;
        try {
            children = client.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException gone) {
            return;
        }
        nodes.add(path);
        for (String child : children) {
            collect(path + "/" + child, nodes);
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
