package dev.weft.rpc.registry.zookeeper;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ZooKeeper session ids one registry has held: the current one and those that expired. A node
 * owned by an expired session of ours is stale (ZooKeeper deletes it only when it reaps that
 * session) and may be replaced at once. Thread-safe.
 */
final class SessionHistory {

    private volatile long current;
    private final Set<Long> expired = ConcurrentHashMap.newKeySet();

    /** Records {@code sessionId} as current; whether it differs from the one before (a new session). */
    synchronized boolean update(long sessionId) {
        long before = current;
        if (before == sessionId) {
            return false;
        }
        if (before != 0) {
            expired.add(before);
        }
        current = sessionId;
        return true;
    }

    long current() {
        return current;
    }

    boolean isExpiredOwn(long sessionId) {
        return sessionId != 0 && sessionId != current && expired.contains(sessionId);
    }
}
