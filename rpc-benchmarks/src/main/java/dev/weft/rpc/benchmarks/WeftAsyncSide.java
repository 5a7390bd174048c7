package dev.weft.rpc.benchmarks;

import dev.weft.rpc.bootstrap.Weft;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Weft's {@code weft} protocol with a {@link CompletableFuture} service method on both sides, the
 * way a user reaches it ({@link Weft#export}, {@link Weft#refer} with a direct provider URL, no
 * registry): the same body as {@link GreeterImpl}, answered by a completed future. {@link #connect}
 * waits for each call (the first call and the one-caller run); {@link NetClient} keeps many calls
 * in flight from one thread through {@link #connectAsync}.
 */
final class WeftAsyncSide implements NetSide {

    private static final long WAIT_SECONDS = 30;

    @Override
    public int serve() {
        Weft weft = Weft.builder().build();
        AsyncGreeter impl = name -> CompletableFuture.completedFuture("Hello, " + name);
        return weft.export(AsyncGreeter.class, impl, "weft://127.0.0.1:0").getInvoker().getUrl().getPort();
    }

    @Override
    public Greeter connect(int port) {
        return waitingFor(connectAsync(port));
    }

    /**
     * {@code greeter} with each call waited for, at most {@link #WAIT_SECONDS}: beyond the refer's own
     * {@code timeout}, so a call that outlives it means a call that never ended.
     */
    static Greeter waitingFor(AsyncGreeter greeter) {
        return name -> {
            try {
                return greeter.greet(name).get(WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for an answer", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("call failed: " + e.getCause(), e.getCause());
            } catch (TimeoutException e) {
                throw new IllegalStateException("no end of the call within " + WAIT_SECONDS + " s", e);
            }
        };
    }

    /** The client side: one shared connection to {@code port}, calls returning at once. */
    AsyncGreeter connectAsync(int port) {
        Weft weft = Weft.builder().build();
        return weft.refer(AsyncGreeter.class, "url=weft://127.0.0.1:" + port + "&timeout=10000");
    }
}
