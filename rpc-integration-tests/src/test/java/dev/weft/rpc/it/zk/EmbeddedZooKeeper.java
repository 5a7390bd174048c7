package dev.weft.rpc.it.zk;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

import java.util.Map;

/** An embedded ZooKeeper on 127.0.0.1 with short ticks, so sessions can be a few seconds. */
final class EmbeddedZooKeeper {

    /** Server tick: sessions may last from 2 ticks up to {@link #MAX_SESSION_MS}. */
    static final int TICK_MS = 200;
    /** The session timeout the registries of these tests ask for. */
    static final int SESSION_MS = 2_000;
    /** The longest session the server grants. */
    static final int MAX_SESSION_MS = 8_000;

    private EmbeddedZooKeeper() {
    }

    /** A started server on a free port of 127.0.0.1. */
    static TestingServer start() throws Exception {
        return new TestingServer(spec(-1), true);
    }

    /** A server (started) on {@code port} of 127.0.0.1, e.g. to restart one on the port it had. */
    static TestingServer start(int port) throws Exception {
        return new TestingServer(spec(port), true);
    }

    private static InstanceSpec spec(int port) {
        return new InstanceSpec(null, port, -1, -1, true, -1, TICK_MS, -1,
                Map.of("clientPortAddress", "127.0.0.1", "maxSessionTimeout", String.valueOf(MAX_SESSION_MS)), "127.0.0.1");
    }

    /** The registry URL of {@code server} with the short session of these tests. */
    static String registryUrl(TestingServer server) {
        return registryUrl(server, SESSION_MS);
    }

    /** The registry URL of {@code server} with a session of {@code sessionMs} (at most {@link #MAX_SESSION_MS}). */
    static String registryUrl(TestingServer server, int sessionMs) {
        return "zookeeper://" + server.getConnectString() + "?session=" + sessionMs + "&timeout=2000";
    }
}
