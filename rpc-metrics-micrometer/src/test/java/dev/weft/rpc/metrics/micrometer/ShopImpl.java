package dev.weft.rpc.metrics.micrometer;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@link Shop} answering {@code id:name}; {@link #hold} waits on {@link #release} (at most 2 s),
 * {@link #later} on {@link #later}; both count {@link #holding} down when called.
 */
final class ShopImpl implements Shop {

    final CountDownLatch release = new CountDownLatch(1);
    final CountDownLatch holding = new CountDownLatch(1);
    /** What {@link #later} answers with once completed. */
    final CompletableFuture<String> later = new CompletableFuture<>();
    private final String id;

    ShopImpl(String id) {
        this.id = id;
    }

    @Override
    public String greet(String name) {
        return id + ":" + name;
    }

    @Override
    public String fail(String name) {
        throw new IllegalArgumentException("no " + name);
    }

    @Override
    public CompletableFuture<String> greetAsync(String name) {
        return CompletableFuture.completedFuture(greet(name));
    }

    @Override
    public CompletableFuture<String> failAsync(String name) {
        return CompletableFuture.failedFuture(new IllegalArgumentException("no " + name));
    }

    @Override
    public CompletableFuture<String> later(String name) {
        holding.countDown();
        return later.thenApply(prefix -> prefix + ":" + name);
    }

    @Override
    public String hold(String name) {
        holding.countDown();
        try {
            release.await(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return id + ":" + name;
    }
}
