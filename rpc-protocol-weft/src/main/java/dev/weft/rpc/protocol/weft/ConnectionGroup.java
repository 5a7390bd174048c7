package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.RpcException;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The connections to one provider address with one set of {@link ClientSettings}, shared by every
 * invoker that refers to it and closed when the last one is destroyed (reference counted by the
 * protocol). A call goes to the available connection with the fewest pending calls (one whose
 * provider answers), else to the usable one with the fewest. Thread-safe.
 */
final class ConnectionGroup {

    private final ClientSettings settings;
    private final List<ClientConnection> connections;
    private final AtomicInteger references = new AtomicInteger();

    ConnectionGroup(ClientSettings settings, List<ClientConnection> connections) {
        this.settings = settings;
        this.connections = List.copyOf(connections);
    }

    ClientSettings settings() {
        return settings;
    }

    /** Adds a reference; false when the group was already released (the caller makes a new one). */
    boolean retain() {
        while (true) {
            int n = references.get();
            if (n < 0) {
                return false;
            }
            if (references.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    /** Drops a reference; true when it was the last (the group is then closed). */
    boolean release() {
        if (references.decrementAndGet() == 0 && references.compareAndSet(0, -1)) {
            connections.forEach(ClientConnection::close);
            return true;
        }
        return false;
    }

    /** Calls sent on this group's connections and not answered yet. */
    int pendingCount() {
        return connections.stream().mapToInt(ClientConnection::pendingCount).sum();
    }

    boolean isAvailable(String service) {
        for (ClientConnection connection : connections) {
            if (connection.isAvailable(service)) {
                return true;
            }
        }
        return false;
    }

    /** A usable channel for the service {@code service} (its key), opening one within the deadline when needed. */
    ChannelState acquire(String service, long deadlineNanos) {
        ClientConnection best = fewestPending(service, true);
        if (best == null) {
            best = fewestPending(service, false);
        }
        if (best == null) {
            for (ClientConnection connection : connections) {
                ChannelState state = connection.current();
                if (state != null && state.isGone(service)) {
                    continue;
                }
                best = connection;
                break;
            }
        }
        if (best == null) {
            throw new RpcException(RpcException.NOT_PROCESSED, "provider " + settings.address() + " is going away for "
                    + service + "; the call was not sent");
        }
        ChannelState state = best.acquire(deadlineNanos);
        if (state.isGone(service)) {
            throw new RpcException(RpcException.NOT_PROCESSED, "provider " + settings.address() + " is going away for "
                    + service + "; the call was not sent");
        }
        return state;
    }

    /** The connection with the fewest pending calls among those available ({@code available}) or usable for {@code service}. */
    private ClientConnection fewestPending(String service, boolean available) {
        ClientConnection best = null;
        int bestPending = Integer.MAX_VALUE;
        for (ClientConnection connection : connections) {
            ChannelState state = connection.current();
            if (state != null && (available ? state.isAvailableFor(service) : state.isUsableFor(service))
                    && state.pendingCount() < bestPending) {
                best = connection;
                bestPending = state.pendingCount();
            }
        }
        return best;
    }
}
