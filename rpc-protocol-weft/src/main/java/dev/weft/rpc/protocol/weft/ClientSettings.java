package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.URL;

import java.util.Objects;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The consumer keys that shape connections; consumers with equal settings to one address share
 * their connections.
 *
 * @param address         {@code host:port}
 * @param connections     connections to the address ({@value #CONNECTIONS_KEY}, default 1)
 * @param lazy            connect on first call ({@value #LAZY_KEY}, default false)
 * @param payload         largest frame body accepted ({@value WeftProtocol#PAYLOAD_KEY})
 * @param heartbeatMillis idle interval before a ping ({@value WeftProtocol#HEARTBEAT_KEY}); dead after 3 silent intervals,
 *                        and unresponsive much sooner ({@link #livenessMillis()})
 * @param connectTimeoutMillis TCP connect bound ({@value #CONNECT_TIMEOUT_KEY}, default {@value #DEFAULT_CONNECT_TIMEOUT})
 */
record ClientSettings(String host, int port, int connections, boolean lazy, int payload, int heartbeatMillis,
                      int connectTimeoutMillis) {

    /** Consumer key: connections per provider address. */
    static final String CONNECTIONS_KEY = "connections";
    /** Consumer key: open connections on first use. */
    static final String LAZY_KEY = "lazy";
    /** Consumer key: TCP connect timeout in ms. */
    static final String CONNECT_TIMEOUT_KEY = "connect-timeout";
    static final int DEFAULT_CONNECT_TIMEOUT = 3000;

    static ClientSettings of(URL url) {
        int connections = url.getParameter(CONNECTIONS_KEY, 1);
        checkArgument(connections > 0 && connections <= 64, "%s: %s (expected: 1 to 64) in %s",
                CONNECTIONS_KEY, connections, url);
        int connectTimeout = url.getParameter(CONNECT_TIMEOUT_KEY, DEFAULT_CONNECT_TIMEOUT);
        checkArgument(connectTimeout > 0, "%s: %s (expected: > 0) in %s", CONNECT_TIMEOUT_KEY, connectTimeout, url);
        checkArgument(url.getPort() > 0, "port: %s (expected: 1 to 65535) in %s", url.getPort(), url);
        return new ClientSettings(url.getHost(), url.getPort(), connections, url.getParameter(LAZY_KEY, false),
                WeftProtocol.payload(url), WeftProtocol.heartbeat(url), connectTimeout);
    }

    /**
     * The liveness bound {@code L} of {@link PeerLiveness}: a tenth of the heartbeat, from 100 ms (a
     * shorter one would take a garbage collection or a busy host for a stopped provider) to 1 s. A
     * call or PING unanswered for {@code L} with nothing read since brings a probing PING; that one unanswered for {@code L} more makes the connection unavailable until
     * the provider answers. With the default heartbeat (15 s) that is 1 s, so a stopped provider
     * stops receiving calls about 2 s after the first one it leaves unanswered.
     */
    long livenessMillis() {
        return Math.max(100, Math.min(1000, heartbeatMillis / 10));
    }

    String address() {
        return host + ":" + port;
    }

    // equals and hashCode are written out because this record keys the protocol's connection
    // groups at every refer: a record's generated ones are bootstrapped through invokedynamic
    // (java.lang.runtime.ObjectMethods) on first use, a cold cost on the way to the first call.

    @Override
    public boolean equals(Object other) {
        return other instanceof ClientSettings that
                && port == that.port
                && connections == that.connections
                && lazy == that.lazy
                && payload == that.payload
                && heartbeatMillis == that.heartbeatMillis
                && connectTimeoutMillis == that.connectTimeoutMillis
                && Objects.equals(host, that.host);
    }

    @Override
    public int hashCode() {
        return Objects.hash(host, port, connections, lazy, payload, heartbeatMillis, connectTimeoutMillis);
    }
}
