package dev.weft.rpc.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * {@code --metrics-port}: serves the live consumer's meters as Prometheus text at
 * {@code http://127.0.0.1:<port>/metrics} while the run lasts, on the loopback interface only, from
 * one daemon thread. {@link #close()} stops it.
 */
final class MetricsEndpoint implements AutoCloseable {

    /** The path Prometheus scrapes. */
    static final String PATH = "/metrics";
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    private MetricsEndpoint(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Serves {@code scrape} on 127.0.0.1:{@code port} (0: a free port).
     *
     * @throws IOException when the port cannot be bound
     */
    static MetricsEndpoint start(int port, Supplier<String> scrape) throws IOException {
        Objects.requireNonNull(scrape, "scrape");
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "playground-metrics");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext(PATH, exchange -> answer(exchange, scrape));
        server.start();
        return new MetricsEndpoint(server, executor);
    }

    private static void answer(HttpExchange exchange, Supplier<String> scrape) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = scrape.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** Where it serves, {@code http://127.0.0.1:<port>/metrics}. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
