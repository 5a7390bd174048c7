package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.URL;

import java.net.InetSocketAddress;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The provider keys of a server, read from the URL of the first service exported on its address.
 *
 * @param bindAddress           host and port to listen on
 * @param threads               business threads ({@value #THREADS_KEY}, default {@value #DEFAULT_THREADS})
 * @param queues                calls that may wait for a thread ({@value #QUEUES_KEY}, default {@value #DEFAULT_QUEUES})
 * @param payload               largest frame body in bytes ({@value WeftProtocol#PAYLOAD_KEY})
 * @param heartbeatMillis       a consumer silent for 3 times this long is closed ({@value WeftProtocol#HEARTBEAT_KEY})
 * @param shutdownTimeoutMillis drain bound ({@value #SHUTDOWN_TIMEOUT_KEY}, default {@value #DEFAULT_SHUTDOWN_TIMEOUT})
 * @param ioThreads             Netty event loop threads ({@value #IO_THREADS_KEY}, default: the number of cores)
 * @param connectionCalls       calls of one connection decoded and not yet answered before it is no longer read
 *                              ({@value #CONNECTION_CALLS_KEY}, default {@value #DEFAULT_CONNECTION_CALLS})
 * @param requestBudget         bytes of large request bodies held at once across connections
 *                              ({@value #REQUEST_BUDGET_KEY}, default {@value #DEFAULT_REQUEST_BUDGET})
 * @param minUploadRate         bytes per second a request body must arrive at
 *                              ({@value #MIN_UPLOAD_RATE_KEY}, default {@value #DEFAULT_MIN_UPLOAD_RATE})
 */
record ServerSettings(InetSocketAddress bindAddress, int threads, int queues, int payload, int heartbeatMillis,
                      int shutdownTimeoutMillis, int ioThreads, int connectionCalls, long requestBudget,
                      long minUploadRate) {

    /** Provider key: business executor threads. */
    static final String THREADS_KEY = "threads";
    static final int DEFAULT_THREADS = 200;
    /** Provider key: calls that may wait for a business thread; beyond it, "server busy". */
    static final String QUEUES_KEY = "queues";
    static final int DEFAULT_QUEUES = 200;
    /** Provider key: how long unexport/destroy waits for running calls. */
    static final String SHUTDOWN_TIMEOUT_KEY = "shutdown-timeout";
    static final int DEFAULT_SHUTDOWN_TIMEOUT = 10_000;
    /** Provider key: Netty event loop threads. */
    static final String IO_THREADS_KEY = "iothreads";
    /** Provider key: calls of one connection decoded and not yet answered; past it, that connection is not read. */
    static final String CONNECTION_CALLS_KEY = "connection-calls";
    static final int DEFAULT_CONNECTION_CALLS = 64;
    /** Provider key: bytes of large request bodies (partial or decoded, not yet answered) held at once. */
    static final String REQUEST_BUDGET_KEY = "request-budget";
    static final long DEFAULT_REQUEST_BUDGET = 64L * 1024 * 1024;
    /** Provider key: the slowest a request body may arrive, in bytes per second; slower closes the connection. */
    static final String MIN_UPLOAD_RATE_KEY = "min-upload-rate";
    static final long DEFAULT_MIN_UPLOAD_RATE = 64L * 1024;

    static ServerSettings of(URL url, int port) {
        int threads = url.getParameter(THREADS_KEY, DEFAULT_THREADS);
        checkArgument(threads > 0, "%s: %s (expected: > 0) in %s", THREADS_KEY, threads, url);
        int queues = url.getParameter(QUEUES_KEY, DEFAULT_QUEUES);
        checkArgument(queues > 0, "%s: %s (expected: > 0) in %s", QUEUES_KEY, queues, url);
        int shutdownTimeout = url.getParameter(SHUTDOWN_TIMEOUT_KEY, DEFAULT_SHUTDOWN_TIMEOUT);
        checkArgument(shutdownTimeout >= 0, "%s: %s (expected: >= 0) in %s", SHUTDOWN_TIMEOUT_KEY,
                shutdownTimeout, url);
        int ioThreads = url.getParameter(IO_THREADS_KEY, Runtime.getRuntime().availableProcessors());
        checkArgument(ioThreads > 0, "%s: %s (expected: > 0) in %s", IO_THREADS_KEY, ioThreads, url);
        int connectionCalls = url.getParameter(CONNECTION_CALLS_KEY, DEFAULT_CONNECTION_CALLS);
        checkArgument(connectionCalls > 0, "%s: %s (expected: > 0) in %s", CONNECTION_CALLS_KEY, connectionCalls, url);
        int payload = WeftProtocol.payload(url);
        long requestBudget = url.getParameter(REQUEST_BUDGET_KEY, DEFAULT_REQUEST_BUDGET);
        checkArgument(requestBudget >= payload, "%s: %s (expected: >= payload %s bytes, so that one request of"
                + " the largest size fits) in %s", REQUEST_BUDGET_KEY, requestBudget, payload, url);
        long minUploadRate = url.getParameter(MIN_UPLOAD_RATE_KEY, DEFAULT_MIN_UPLOAD_RATE);
        checkArgument(minUploadRate > 0, "%s: %s (expected: > 0 bytes per second) in %s", MIN_UPLOAD_RATE_KEY,
                minUploadRate, url);
        return new ServerSettings(new InetSocketAddress(url.getHost(), port), threads, queues,
                payload, WeftProtocol.heartbeat(url), shutdownTimeout, ioThreads, connectionCalls, requestBudget,
                minUploadRate);
    }

    /**
     * Checks that {@code url}, a service joining this running server, sets no server key to another
     * value than the server runs with (a key it leaves out takes the server's value): one server has
     * one set of threads, queue, limits and timeouts, which its first export chose.
     *
     * @param boundPort the port the server listens on (the bind address may name 0)
     * @throws IllegalArgumentException naming the first key that differs, both values, and the server
     */
    void checkJoinable(URL url, int boundPort) {
        ServerSettings wanted = of(url, boundPort);
        checkSame(url, boundPort, THREADS_KEY, threads, wanted.threads);
        checkSame(url, boundPort, QUEUES_KEY, queues, wanted.queues);
        checkSame(url, boundPort, WeftProtocol.PAYLOAD_KEY, payload, wanted.payload);
        checkSame(url, boundPort, WeftProtocol.HEARTBEAT_KEY, heartbeatMillis, wanted.heartbeatMillis);
        checkSame(url, boundPort, SHUTDOWN_TIMEOUT_KEY, shutdownTimeoutMillis, wanted.shutdownTimeoutMillis);
        checkSame(url, boundPort, IO_THREADS_KEY, ioThreads, wanted.ioThreads);
        checkSame(url, boundPort, CONNECTION_CALLS_KEY, connectionCalls, wanted.connectionCalls);
        checkSame(url, boundPort, REQUEST_BUDGET_KEY, requestBudget, wanted.requestBudget);
        checkSame(url, boundPort, MIN_UPLOAD_RATE_KEY, minUploadRate, wanted.minUploadRate);
    }

    private void checkSame(URL url, int boundPort, String key, long running, long wanted) {
        checkArgument(!url.hasParameter(key) || running == wanted,
                "%s: %s in %s (expected: %s, which the server on %s:%s runs with since its first export, or the key left out)",
                key, wanted, url, running, bindAddress.getHostString(), boundPort);
    }
}
