package org.apache.zookeeper;

/**
 * Makes a client believe its session expired while the server keeps it (and its ephemeral nodes)
 * until it times out: the situation of a client that learns of the expiry before the server has
 * reaped the session. In this package because it needs the client's package-private connection.
 *
 * <p>ZooKeeper's own {@code Testable.injectSessionExpiration()} (which curator-test's
 * {@code KillSession} calls) queues the expiry event before it marks the connection closed. On a
 * busy machine Curator can handle the event in between and close the handle while it still looks
 * alive, which sends a real close to the server and deletes the session's nodes at once. Marking the
 * connection closed first removes that race.
 */
public final class ClientSideExpiry {

    private ClientSideExpiry() {
    }

    /** Expires {@code zooKeeper}'s session on the client side only. */
    public static void expire(ZooKeeper zooKeeper) {
        ClientCnxn connection = zooKeeper.cnxn;
        connection.state = ZooKeeper.States.CLOSED;
        connection.sendThread.getClientCnxnSocket().onClosing();
        connection.eventThread.queueEvent(new WatchedEvent(Watcher.Event.EventType.None, Watcher.Event.KeeperState.Expired,
                null));
        connection.eventThread.queueEventOfDeath();
    }
}
