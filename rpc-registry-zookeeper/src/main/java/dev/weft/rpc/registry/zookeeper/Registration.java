package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.ThrottledLog;
import dev.weft.rpc.common.URL;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executor;

/**
 * One registered URL's node, kept in place: created (ephemeral, or persistent for
 * {@code dynamic=false}), watched, and created again when it is deleted or when the registry gets
 * a new session.
 *
 * <p>After a session expiry ZooKeeper may still hold the node of the expired session until it
 * reaps that session; creating it again then fails with "node exists" and the node would vanish a
 * moment later. A node owned by one of this registry's expired sessions is therefore replaced (a
 * delete at its version and a create, in one transaction, so consumers never see the provider
 * missing). A node is this registry's own when its session is one the registry recorded, or when
 * its data is the registry's identity ({@link SessionHistory}). A node owned by another live session is left alone and
 * watched: it is created again when that session lets it go.
 *
 * <p><b>Why not Curator's {@code PersistentNode}.</b> That recipe also keeps a node in place
 * across deletions and new sessions, but not in the way a provider needs: a node left by an
 * expired session is adopted as it is (its data set), so it vanishes when ZooKeeper reaps that
 * session and is created again only after the deletion is seen, and consumers see the provider
 * missing in between ("no provider" when it is the only one); it cannot tell a node of this
 * registry's own expired session from one of another live registry, which must be left alone; and
 * it reports an ACL refusal only to a background callback, while {@code register} must fail at
 * once naming the identity to use. It also runs its own background operations per node, where this
 * class runs on the registry's single worker thread, ordered with reads and session changes.
 *
 * <p>{@link #ensure()} and {@link #tryEnsure()} run on the registry's single worker thread only;
 * {@link #close(boolean)} from any.
 */
final class Registration {

    private static final Logger log = LoggerFactory.getLogger(Registration.class);
    private static final byte[] NO_DATA = new byte[0];
    private static final int ATTEMPTS = 3;

    private final CuratorFramework client;
    private final URL url;
    private final String path;
    private final boolean ephemeral;
    private final SessionHistory sessions;
    private final RateLimitedLog failures;
    private final CuratorWatcher watcher;
    private volatile boolean closed;

    Registration(CuratorFramework client, URL url, String path, boolean ephemeral, SessionHistory sessions,
            RateLimitedLog failures, Executor worker) {
        this.client = client;
        this.url = url;
        this.path = path;
        this.ephemeral = ephemeral;
        this.sessions = sessions;
        this.failures = failures;
        this.watcher = event -> {
            if (event.getType() == Watcher.Event.EventType.NodeDeleted && !closed) {
                worker.execute(this::ensure);
            }
        };
    }

    String path() {
        return path;
    }

    boolean isEphemeral() {
        return ephemeral;
    }

    /**
     * Makes sure the node exists and is watched; failures are logged and retried on the next
     * connection or change.
     */
    void ensure() {
        String refusal = tryEnsure();
        if (refusal != null) {
            failures.warn(path, refusal + "; retrying when connected again", null);
        }
    }

    /**
     * Like {@link #ensure()}, but returns (does not log) why ZooKeeper refused the node because of
     * an ACL, which a retry cannot cure; {@code null} when the node is in place or a failure
     * that a reconnection cures was logged.
     */
    String tryEnsure() {
        if (closed) {
            return null;
        }
        try {
            for (int attempt = 0; attempt < ATTEMPTS && !closed; attempt++) {
                if (createOrAdopt() && watch()) {
                    failures.reset(path);
                    return null;
                }
            }
            failures.warn(path, "Could not keep the registration of " + url + " at " + path
                    + " (the node kept changing); retrying on the next change", null);
        } catch (KeeperException.NoAuthException | KeeperException.InvalidACLException e) {
            return aclRefusal("register", e instanceof KeeperException.NoAuthException ? "NoAuth" : "InvalidACL",
                    e.getPath(), "create nodes there");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            failures.warn(path, "Could not register " + url + " at " + path + "; retrying when connected", e);
        }
        return null;
    }

    /** Whether the node is in place as ours (or another live session's, which we wait for). */
    private boolean createOrAdopt() throws Exception {
        try {
            client.create().creatingParentsIfNeeded()
                    .withMode(ephemeral ? CreateMode.EPHEMERAL : CreateMode.PERSISTENT)
                    .forPath(path, ephemeral ? sessions.identity() : NO_DATA);
            log.debug("Registered {} at {}", url, path);
            return true;
        } catch (KeeperException.NodeExistsException e) {
            Stat stat = new Stat();
            byte[] data;
            try {
                data = client.getData().storingStatIn(stat).forPath(path);
            } catch (KeeperException.NoNodeException gone) {
                return false;
            }
            long owner = stat.getEphemeralOwner();
            if (ephemeral && sessions.isStaleOwn(owner, data)) {
                return replace(stat, owner);
            }
            if (ephemeral && owner != sessions.current()) {
                log.info("Node {} is held by session 0x{}; it will be created again when that session lets it go",
                        path, Long.toHexString(owner));
            }
            return true;
        }
    }

    /**
     * Replaces the node of one of this registry's expired sessions by one of the current session,
     * in one ZooKeeper transaction: a reader sees the old node or the new one, never neither (a
     * delete followed by a create would show consumers a moment without this provider, and with
     * it their only one: "no provider"). Whether the node is now ours.
     */
    private boolean replace(Stat stale, long owner) throws Exception {
        try {
            client.transaction().forOperations(
                    client.transactionOp().delete().withVersion(stale.getVersion()).forPath(path),
                    client.transactionOp().create().withMode(CreateMode.EPHEMERAL).forPath(path, sessions.identity()));
            log.info("Replaced the node of expired session 0x{} at {}", Long.toHexString(owner), path);
            return true;
        } catch (KeeperException.NoNodeException | KeeperException.BadVersionException
                | KeeperException.NodeExistsException changed) {
            log.debug("Stale node at {} changed before it was replaced", path);
            return false;
        }
    }

    private boolean watch() throws Exception {
        return client.checkExists().usingWatcher(watcher).forPath(path) != null;
    }

    /**
     * Stops keeping the node and, when {@code delete}, deletes it. Returns why ZooKeeper refused
     * the delete because of an ACL (which a retry cannot cure), else {@code null}; other errors
     * are logged (an ephemeral node goes with the session).
     */
    String close(boolean delete) {
        closed = true;
        if (!delete) {
            return null;
        }
        try {
            client.delete().guaranteed().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            log.debug("Node {} was already gone", path);
        } catch (KeeperException.NoAuthException e) {
            return aclRefusal("unregister", "NoAuth", path, "delete nodes of its folder");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("Could not delete {} for {}: {}", path, url, ThrottledLog.describe(e));
        }
        return null;
    }

    /** Why ZooKeeper refused {@code operation} on {@code nodePath} ({@code code}), and whose identity it would take. */
    private String aclRefusal(String operation, String code, String nodePath, String allowedTo) {
        return operation + " " + url + ": " + code + " for " + nodePath + " (expected: an identity allowed to "
                + allowedTo + ": the user:password of the registry URL that created the folder,"
                + " zookeeper://user:password@host:port, or an ACL granting this registry's identity)";
    }
}
