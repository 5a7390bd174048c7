package dev.weft.rpc.tracing.opentelemetry;

import java.util.concurrent.CompletableFuture;

/** {@link Shop} answering {@code id:name}. */
class ShopImpl implements Shop {

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
    public String sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return id + ":slept";
    }
}
