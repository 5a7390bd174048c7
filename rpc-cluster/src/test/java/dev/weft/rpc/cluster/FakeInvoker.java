package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A provider invoker that answers from a script, then from a fallback behaviour; counts calls. */
final class FakeInvoker implements Invoker<Greeting> {

    /** What one call does. */
    @FunctionalInterface
    interface Behaviour {
        Result call(FakeInvoker self, Invocation invocation);
    }

    private final URL url;
    private final ConcurrentLinkedQueue<Behaviour> script = new ConcurrentLinkedQueue<>();
    private volatile Behaviour fallback;
    private volatile boolean available = true;
    private final AtomicInteger calls = new AtomicInteger();
    private volatile boolean destroyed;
    private volatile Runnable availabilityCheck = () -> { };

    private FakeInvoker(URL url, Behaviour fallback) {
        this.url = url;
        this.fallback = fallback;
    }

    /** {@code dubbo://<host>:20880/dev.weft.rpc.cluster.Greeting} answering its host name. */
    static FakeInvoker named(String host) {
        return new FakeInvoker(URL.valueOf("dubbo://" + host + ":20880/" + Greeting.class.getName()), answerHost());
    }

    static FakeInvoker withUrl(String url) {
        return new FakeInvoker(URL.valueOf(url), answerHost());
    }

    /** The next calls do these, in order; afterwards the fallback applies. */
    FakeInvoker then(Behaviour... behaviours) {
        for (Behaviour behaviour : behaviours) {
            script.add(behaviour);
        }
        return this;
    }

    /** Every call after the script does this. */
    FakeInvoker always(Behaviour behaviour) {
        this.fallback = behaviour;
        return this;
    }

    /** Runs {@code hook} on every {@link #isAvailable()} call. */
    FakeInvoker onAvailabilityCheck(Runnable hook) {
        this.availabilityCheck = hook;
        return this;
    }

    FakeInvoker available(boolean available) {
        this.available = available;
        return this;
    }

    int calls() {
        return calls.get();
    }

    String host() {
        return url.getHost();
    }

    boolean destroyed() {
        return destroyed;
    }

    @Override
    public Class<Greeting> getInterface() {
        return Greeting.class;
    }

    @Override
    public Result invoke(Invocation invocation) {
        calls.incrementAndGet();
        Behaviour next = script.poll();
        return (next != null ? next : fallback).call(this, invocation);
    }

    @Override
    public URL getUrl() {
        return url;
    }

    @Override
    public boolean isAvailable() {
        availabilityCheck.run();
        return available;
    }

    @Override
    public void destroy() {
        destroyed = true;
    }

    @Override
    public String toString() {
        return "FakeInvoker[" + url.getHost() + "]";
    }

    // ------------------------------------------------------------------ behaviours

    static Behaviour answerHost() {
        return (self, invocation) -> RpcResult.of(self.host());
    }

    static Behaviour answer(Object value) {
        return (self, invocation) -> RpcResult.of(value);
    }

    static Behaviour networkError() {
        return (self, invocation) -> {
            throw new RpcException(RpcException.NETWORK_EXCEPTION, "connection refused by " + self.host());
        };
    }

    static Behaviour timeout() {
        return (self, invocation) -> {
            throw new RpcException(RpcException.TIMEOUT_EXCEPTION, "timeout waiting for " + self.host());
        };
    }

    static Behaviour bizError() {
        return (self, invocation) -> {
            throw new RpcException(RpcException.BIZ_EXCEPTION, "insufficient funds at " + self.host());
        };
    }

    static Behaviour unexpected() {
        return (self, invocation) -> {
            throw new IllegalStateException("codec bug at " + self.host());
        };
    }

    static Behaviour resultWithException(Throwable exception) {
        return (self, invocation) -> RpcResult.ofException(exception);
    }

    /** Sleeps {@code millis}, then answers the host name. */
    static Behaviour slow(long millis) {
        return (self, invocation) -> {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RpcException(RpcException.NETWORK_EXCEPTION, "interrupted", e);
            }
            return RpcResult.of(self.host());
        };
    }

    /** Signals {@code entered}, waits for {@code release}, then answers the host name. */
    static Behaviour blockUntil(CountDownLatch entered, CountDownLatch release) {
        return (self, invocation) -> {
            entered.countDown();
            try {
                if (!release.await(10, TimeUnit.SECONDS)) {
                    throw new RpcException(RpcException.TIMEOUT_EXCEPTION, "test latch never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RpcException(RpcException.NETWORK_EXCEPTION, "interrupted", e);
            }
            return RpcResult.of(self.host());
        };
    }
}
