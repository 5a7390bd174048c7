package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.Registry;
import dev.weft.rpc.registry.RegistryFactory;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The {@code threads} registry factory of the bootstrap tests, shaped like a real one: it starts
 * the worker its registries share on first use, stops it when its director closes it, and
 * rejects a URL with {@code reject=true}. The worker thread is named
 * {@code test-registry-worker-<tag>} after the URL's {@code tag}, so a test sees whether it runs.
 */
public final class ThreadOwningRegistryFactory implements RegistryFactory, AutoCloseable {

    static final String THREAD_PREFIX = "test-registry-worker-";
    private ExecutorService worker;

    @Override
    public synchronized Registry getRegistry(URL url) {
        if (worker == null) {
            String name = THREAD_PREFIX + url.getParameter("tag", "none");
            worker = Executors.newSingleThreadExecutor(task -> new Thread(task, name));
            worker.execute(() -> { });
        }
        if (url.getParameter("reject", false)) {
            throw new IllegalArgumentException("reject: true (expected: false) in " + url);
        }
        throw new UnsupportedOperationException("threads registry: only rejects (expected: reject=true) in " + url);
    }

    @Override
    public synchronized void close() throws InterruptedException {
        if (worker != null) {
            worker.shutdown();
            worker.awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
