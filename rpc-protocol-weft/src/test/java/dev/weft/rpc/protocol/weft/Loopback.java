package dev.weft.rpc.protocol.weft;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.Cancellation;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.ThreadlessExecutor;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.testing.DelegatingReplies;
import dev.weft.rpc.testing.FakeProvider;

import java.lang.reflect.Proxy;
import java.util.concurrent.ForkJoinPool;
import java.util.Random;

/** A weft protocol on 127.0.0.1 for one test: export, refer, and a JDK proxy over an invoker. */
final class Loopback implements AutoCloseable {

    final WeftProtocol protocol = new WeftProtocol(Ticker.systemTicker(), new Random(42));

    /** Exports {@code impl} on a free port of 127.0.0.1 with the extra query {@code params} ("" for none). */
    <T> Exporter<T> export(Class<T> type, T impl, String params) {
        URL url = URL.valueOf("weft://127.0.0.1:0/" + type.getName() + (params.isEmpty() ? "" : "?" + params));
        return protocol.export(provider(type, impl, url));
    }

    /** A provider invoker at {@code url} running {@code impl}, as a proxy factory's invoker would. */
    static <T> FakeProvider<T> provider(Class<T> type, T impl, URL url) {
        return FakeProvider.at(type, url).answering(DelegatingReplies.implementation(type, impl));
    }

    /** Refers to what {@code exporter} exports, with the extra consumer query {@code params}. */
    <T> Invoker<T> refer(Class<T> type, Exporter<T> exporter, String params) {
        return refer(type, exporter.getInvoker().getUrl().getPort(), params);
    }

    <T> Invoker<T> refer(Class<T> type, int port, String params) {
        URL url = URL.valueOf("weft://127.0.0.1:" + port + "/" + type.getName() + (params.isEmpty() ? "" : "?" + params));
        return protocol.refer(type, url);
    }

    /** A proxy whose calls go through {@code invoker} and whose results are re-created as a proxy would. */
    static <T> T proxy(Class<T> type, Invoker<T> invoker) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return method.getName().equals("toString") ? invoker.toString() : method.invoke(invoker, args);
            }
            // as Weft's sync proxy does: the answer is handed to this thread, which waits for it
            RpcInvocation invocation = new RpcInvocation(method, args);
            ThreadlessExecutor executor = new ThreadlessExecutor(ForkJoinPool.commonPool());
            Cancellation cancellation = Cancellation.create();
            invocation.setCallOptions(CallOptions.DEFAULT.withExecutor(executor).withCancellation(cancellation));
            Result result = invoker.invoke(invocation);
            executor.await(result, cancellation);
            return result.recreate();
        }));
    }

    @Override
    public void close() {
        protocol.destroy();
    }
}
