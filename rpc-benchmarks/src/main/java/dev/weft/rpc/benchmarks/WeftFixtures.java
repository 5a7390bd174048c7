package dev.weft.rpc.benchmarks;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.proxy.ProxyFactory;
import java.util.ArrayList;
import java.util.List;

/** Builds the Weft side of each workload: URLs, constant in-JVM invokers and invocations. */
public final class WeftFixtures {
    private WeftFixtures() {
    }

    /** {@code count} invokers that answer at once with one preallocated result. */
    public static List<Invoker<Greeter>> constantInvokers(int count, String weights) {
        List<Invoker<Greeter>> invokers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            invokers.add(new ConstantInvoker(URL.valueOf(Workload.providerUrl(i, weights)), "Hello, provider-" + i));
        }
        return invokers;
    }

    /** {@code count} provider invokers made by {@code factory.getInvoker(impl, Greeter.class, url)}. */
    public static List<Invoker<Greeter>> providerInvokers(ProxyFactory factory, int count, String weights) {
        List<Invoker<Greeter>> invokers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            invokers.add(factory.getInvoker(new GreeterImpl(), Greeter.class, URL.valueOf(Workload.providerUrl(i, weights))));
        }
        return invokers;
    }

    /** {@link Workload#ARGUMENT_COUNT} invocations of {@code greet} with distinct arguments (for balancers). */
    public static Invocation[] invocations() {
        Invocation[] invocations = new Invocation[Workload.ARGUMENT_COUNT];
        for (int i = 0; i < invocations.length; i++) {
            invocations[i] = invocation(Workload.argument(i));
        }
        return invocations;
    }

    /** A fresh invocation of {@code greet(argument)}, as a proxy creates per call. */
    public static Invocation invocation(String argument) {
        return new RpcInvocation(Workload.METHOD, Workload.PARAMETER_TYPES, new Object[] {argument});
    }

    /** A provider stand-in that returns the same result immediately; thread-safe. */
    static final class ConstantInvoker implements Invoker<Greeter> {
        private final URL url;
        private final Result result;

        ConstantInvoker(URL url, String value) {
            this.url = url;
            this.result = RpcResult.of(value);
        }

        @Override
        public Class<Greeter> getInterface() {
            return Greeter.class;
        }

        @Override
        public Result invoke(Invocation invocation) {
            return result;
        }

        @Override
        public URL getUrl() {
            return url;
        }

        @Override
        public boolean isAvailable() {
            return true;
        }

        @Override
        public void destroy() {
        }

        @Override
        public String toString() {
            return "ConstantInvoker[" + url.getAddress() + "]";
        }
    }
}
