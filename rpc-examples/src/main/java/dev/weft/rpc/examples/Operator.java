package dev.weft.rpc.examples;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Cleans up after the live run: notes which nodes of {@link #SERVICE_ROOT} exist when it connects,
 * and deletes at the end what the run added (the rules, a killed provider's registration, the
 * category nodes). The rules themselves are written by {@link AdminCommands}. It has its own
 * ZooKeeper session, separate from every provider's and the consumer's. Not thread-safe: the run's
 * main thread uses it.
 */
final class Operator implements AutoCloseable {

    static final String SERVICE = GreetingService.class.getName();
    static final String ROOT = "/weft";
    static final String SERVICE_ROOT = ROOT + "/" + SERVICE;
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
