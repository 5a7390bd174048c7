package dev.weft.rpc.registry.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ZooKeeper session ids one registry has held: the current one and those that expired, and the
 * identity it writes as the data of its ephemeral nodes. A node owned by an expired session of
 * ours is stale (ZooKeeper deletes it only when it reaps that session) and may be replaced at once.
 *
 * <p>Session ids alone miss a session that was created and lost between two of the registry's
 * looks at its connection (back-to-back expiries: a retried create can land in such a session), so
 * a node whose data is this registry's identity is recognised as its own too. Thread-safe.
 */
final class SessionHistory {

    private volatile long current;
    private final Set<Long> expired = ConcurrentHashMap.newKeySet();
    private final byte[] identity = UUID.randomUUID().toString().getBytes(StandardCharsets.US_ASCII);

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

    /** The data this registry writes into its ephemeral nodes (a copy). */
    byte[] identity() {
        return identity.clone();
    }

    /**
     * Whether an ephemeral node owned by {@code sessionId} with {@code data} is one of this
     * registry's own, left by a session other than the current one.
     */
    boolean isStaleOwn(long sessionId, byte[] data) {
        return isExpiredOwn(sessionId) || sessionId != 0 && sessionId != current && Arrays.equals(identity, data);
    }
}
