package org.apache.zookeeper;

import java.util.List;

/**
 * The paths a client holds watches on, as its own watch manager records them. In this package
 * because ZooKeeper keeps these lists protected.
 */
public final class ClientWatches {

    private ClientWatches() {
    }

    /** The paths {@code zooKeeper} holds a persistent (non-recursive) watch on. */
    public static List<String> persistent(ZooKeeper zooKeeper) {
        return zooKeeper.getPersistentWatches();
    }

    /** The paths {@code zooKeeper} holds a one-shot exists watch on. */
    public static List<String> exists(ZooKeeper zooKeeper) {
        return zooKeeper.getExistWatches();
    }
}
