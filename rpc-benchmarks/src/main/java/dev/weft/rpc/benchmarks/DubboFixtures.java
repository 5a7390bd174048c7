package dev.weft.rpc.benchmarks;

import java.util.ArrayList;
import java.util.List;
import org.apache.dubbo.common.URL;
import org.apache.dubbo.rpc.AppResponse;
import org.apache.dubbo.rpc.Invocation;
import org.apache.dubbo.rpc.Invoker;
import org.apache.dubbo.rpc.ProxyFactory;
import org.apache.dubbo.rpc.Result;
import org.apache.dubbo.rpc.RpcInvocation;
import org.apache.dubbo.rpc.model.ApplicationModel;
import org.apache.dubbo.rpc.model.ModuleModel;
import org.apache.dubbo.rpc.model.ServiceModel;

/**
 * Builds the Dubbo 3.3.6 side of each workload: URLs bound to the default application's module
 * (Dubbo's weight and statistics lookups need a scope model), constant in-JVM invokers, and
 * invocations.
 */
public final class DubboFixtures {
    private DubboFixtures() {
    }

    /** Dubbo's default module; every URL is bound to it. */
    public static ModuleModel module() {
        return ApplicationModel.defaultModel().getDefaultModule();
    }

    /** Parses {@code text} and binds it to {@link #module()}. */
    public static URL url(String text) {
        return URL.valueOf(text).setScopeModel(module());
    }

    /** {@code count} invokers that answer at once with one preallocated result. */
    public static List<Invoker<Greeter>> constantInvokers(int count, String weights) {
        List<Invoker<Greeter>> invokers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            invokers.add(new ConstantInvoker(url(Workload.providerUrl(i, weights)), "Hello, provider-" + i));
        }
        return invokers;
    }

    /** {@code count} provider invokers made by {@code factory.getInvoker(impl, Greeter.class, url)}. */
    public static List<Invoker<Greeter>> providerInvokers(ProxyFactory factory, int count, String weights) {
        List<Invoker<Greeter>> invokers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            invokers.add(factory.getInvoker(new GreeterImpl(), Greeter.class, url(Workload.providerUrl(i, weights))));
        }
        return invokers;
    }

    /**
     * {@link Workload#ARGUMENT_COUNT} invocations of {@code greet} with distinct arguments, for
     * balancers only: Dubbo's cluster invoker appends to an invocation's invoked-invoker list on
     * every call, so cluster benchmarks create one per call with {@link #invocation(String)}.
     */
    public static RpcInvocation[] invocations() {
        RpcInvocation[] invocations = new RpcInvocation[Workload.ARGUMENT_COUNT];
        for (int i = 0; i < invocations.length; i++) {
            invocations[i] = invocation(Workload.argument(i));
        }
        return invocations;
    }

    /** A fresh invocation of {@code greet(argument)}, as Dubbo's proxy creates per call. */
    public static RpcInvocation invocation(String argument) {
        return new RpcInvocation((ServiceModel) null, Workload.METHOD, Workload.SERVICE, Workload.SERVICE,
                Workload.PARAMETER_TYPES, new Object[] {argument});
    }

    /** A provider stand-in that returns the same result immediately; thread-safe. */
    static final class ConstantInvoker implements Invoker<Greeter> {
        private final URL url;
        private final AppResponse response;

        ConstantInvoker(URL url, String value) {
            this.url = url;
            this.response = new AppResponse(value);
        }

        @Override
        public Class<Greeter> getInterface() {
            return Greeter.class;
        }

        @Override
        public Result invoke(Invocation invocation) {
            return response;
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
