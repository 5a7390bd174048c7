package dev.weft.rpc.registry.zookeeper;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link ZookeeperRegistry} knows of its ZooKeeper connection, for metrics and dashboards.
 * Immutable.
 *
 * @param state            the connection state
 * @param sessionId        the current ZooKeeper session id, 0 before the first connection
 * @param sinceLastRead    time since a category folder was last read successfully; empty before the first read
 * @param skippedNodeNames distinct node paths skipped because their names did not parse (each logged once)
 */
public record ZookeeperHealth(State state, long sessionId, Optional<Duration> sinceLastRead, long skippedNodeNames) {

    public ZookeeperHealth {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(sinceLastRead, "sinceLastRead");
    }

    /** The connection state, as Curator reports it. */
    public enum State {
        /** Not connected yet since the registry was created. */
        CONNECTING,
        /** Connected; lists are current. */
        CONNECTED,
        /** The connection is lost, the session may still be alive; subscribers keep their last lists. */
        SUSPENDED,
        /** The session is lost (expired or timed out while disconnected); a new one is being set up. */
        LOST,
        /** The registry is closed. */
        CLOSED
    }
}
