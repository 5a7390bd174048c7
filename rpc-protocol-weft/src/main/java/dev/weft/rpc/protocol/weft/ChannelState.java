package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.RpcException;
import io.netty.channel.Channel;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One consumer channel: its pending calls by request id (ids count from 1 per channel), and
 * what the provider announced on it (GOAWAY for one service or for all; a service served again).
 * A new channel starts with a fresh state, so a restarted provider is never seen as still going
 * away. Thread-safe.
 */
final class ChannelState {

    private final Channel channel;
    private final String remote;
    private final AtomicLong nextId = new AtomicLong();
    private final Map<Long, PendingCall> pending = new ConcurrentHashMap<>();
    private final Set<String> goneServices = ConcurrentHashMap.newKeySet();
    private volatile boolean goingAway;
    private volatile boolean closed;
    /** The provider has sent something on this channel (see {@link PeerLiveness}). */
    private volatile boolean heard;
    /** Something has waited for an answer past the liveness bound with nothing read since (see {@link PeerLiveness}). */
    private volatile boolean unresponsive;

    ChannelState(Channel channel, String remote) {
        this.channel = channel;
        this.remote = remote;
    }

    Channel channel() {
        return channel;
    }

    String remote() {
        return remote;
    }

    /** Open, and the provider has not announced it is going away. */
    boolean isUsable() {
        return !closed && !goingAway && channel.isActive();
    }

    boolean isUsableFor(String service) {
        return isUsable() && !goneServices.contains(service);
    }

    /**
     * Usable for {@code service}, the provider has answered on this channel, and it answers still
     * (nothing has waited past the liveness bound unanswered): what a cluster may pick.
     */
    boolean isAvailableFor(String service) {
        return heard && !unresponsive && isUsableFor(service);
    }

    /** A frame arrived from the provider. */
    void heard() {
        heard = true;
    }

    /** Set by {@link PeerLiveness} on the event loop: the provider leaves what was sent unanswered, or answers again. */
    void unresponsive(boolean value) {
        unresponsive = value;
    }

    boolean isUnresponsive() {
        return unresponsive;
    }

    int pendingCount() {
        return pending.size();
    }

    long nextId() {
        return nextId.incrementAndGet();
    }

    /**
     * Registers a call; when the channel closed meanwhile the call fails at once (it was never
     * sent, so NOT_PROCESSED).
     */
    void register(long id, PendingCall call) {
        pending.put(id, call);
        if (closed) {
            fail(id, RpcException.NOT_PROCESSED, "connection to " + remote + " closed before the call was sent");
        }
    }

    /**
     * Removes call {@code id} for the caller to complete; {@code null} when it is no longer pending
     * (already answered, expired or failed). Closes a going-away channel once nothing is pending.
     */
    PendingCall take(long id) {
        PendingCall call = pending.remove(id);
        if (call != null && goingAway && pending.isEmpty()) {
            channel.close();
        }
        return call;
    }

    void fail(long id, int code, String message) {
        PendingCall call = take(id);
        if (call != null) {
            call.fail(new RpcException(code, message));
        }
    }

    /**
     * The consumer gives up on call {@code id}: it fails with {@code failure} and, when the channel
     * is still open, the provider is told (a CANCEL event) so that it skips the call if it has not
     * started. Does nothing when the call is no longer pending (answered, expired or failed).
     */
    void cancel(long id, RpcException failure) {
        PendingCall call = take(id);
        if (call == null) {
            return;
        }
        if (channel.isActive()) {
            channel.writeAndFlush(Frame.cancel(channel.alloc(), id), channel.voidPromise());
        }
        call.fail(failure);
    }

    /** The provider stops taking calls on this connection; it is closed once nothing is pending. */
    void goAway() {
        goingAway = true;
        if (pending.isEmpty()) {
            channel.close();
        }
    }

    void goAway(String service) {
        goneServices.add(service);
    }

    /** The provider serves {@code service} again; true when it had gone away for it on this channel. */
    boolean serving(String service) {
        return goneServices.remove(service);
    }

    boolean isGone(String service) {
        return goingAway || goneServices.contains(service);
    }

    /**
     * The channel closed: every pending call fails now, not at its deadline. A call whose request
     * had not been wholly written fails NOT_PROCESSED (the provider never had it); one written
     * fails with a network error, since the provider may have run it.
     */
    void closed() {
        closed = true;
        pending.forEach((id, call) -> {
            if (call.isWritten()) {
                fail(id, RpcException.NETWORK_EXCEPTION, "connection to " + remote + " closed while the call was pending");
            } else {
                fail(id, RpcException.NOT_PROCESSED, "connection to " + remote + " closed before the call was sent");
            }
        });
    }
}
