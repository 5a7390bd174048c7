package dev.weft.rpc.registry;

import java.time.Duration;
import java.util.Optional;

/**
 * How a registry's connection stands, for consumers, metrics and the playground. A
 * {@link Registry} that has a connection (ZooKeeper) implements it; {@link RegistryDirectory#getRegistryHealth()}
 * exposes it. While a registry is not {@link State#CONNECTED}, directories keep their last known
 * providers (a registry never announces an empty category it could not read). Implementations
 * are thread-safe.
 */
public interface RegistryHealth {

    /** The connection state. */
    enum State {
        /** Not connected yet since start. */
        CONNECTING,
        /** Connected: notifications are current. */
        CONNECTED,
        /** Connection lost, session may still be alive: the last known lists keep serving. */
        SUSPENDED,
        /** Session lost: the last known lists keep serving until a new session reads them again. */
        LOST,
        /** Closed by its owner. */
        CLOSED
    }

    State getState();

    /** Time since the registry last read its data successfully; empty before the first read. */
    Optional<Duration> getTimeSinceLastRead();
}
