package dev.weft.rpc.benchmarks;

import dev.weft.rpc.bootstrap.Weft;

import java.util.concurrent.CompletableFuture;

/**
 * Weft's {@code weft} protocol with a {@link CompletableFuture} service method on both sides, the
 * way a user reaches it ({@link Weft#export}, {@link Weft#refer} with a direct provider URL, no
 * registry): the same body as {@link GreeterImpl}, answered by a completed future. {@link #connect}
 * waits for each call (the first call and the one-caller run); {@link NetClient} keeps many calls
 * in flight from one thread through {@link #connectAsync}.
 */
final class WeftAsyncSide implements NetSide {

    @Override
    public int serve() {
        Weft weft = Weft.builder().build();
        AsyncGreeter impl = name -> CompletableFuture.completedFuture("Hello, " + name);
        return weft.export(AsyncGreeter.class, impl, "weft://127.0.0.1:0").getInvoker().getUrl().getPort();
    }

    @Override
    public Greeter connect(int port) {
        AsyncGreeter greeter = connectAsync(port);
        return name -> greeter.greet(name).join();
    }

    /** The client side: one shared connection to {@code port}, calls returning at once. */
    AsyncGreeter connectAsync(int port) {
        Weft weft = Weft.builder().build();
        return weft.refer(AsyncGreeter.class, "url=weft://127.0.0.1:" + port + "&timeout=10000");
    }
}
