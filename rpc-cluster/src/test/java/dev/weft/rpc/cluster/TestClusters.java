package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.testing.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Helpers shared by the cluster tests. */
final class TestClusters {

    static final String CONSUMER = "consumer://10.0.0.100/" + "dev.weft.rpc.cluster.Greeting";

    private TestClusters() {
    }

    /** {@code cluster} resolving every balancer name to {@code loadBalance}. */
    static <C extends AbstractCluster> C using(C cluster, LoadBalance loadBalance) {
        cluster.useLoadBalances(name -> loadBalance);
        return cluster;
    }

    static <C extends AbstractCluster> C first(C cluster) {
        return using(cluster, new FirstLoadBalance());
    }

    static URL consumer(String parameters) {
        return URL.valueOf(CONSUMER + (parameters.isEmpty() ? "" : "?" + parameters));
    }

    @SafeVarargs
    static DynamicDirectory<Greeting> directory(String parameters, Invoker<Greeting>... invokers) {
        DynamicDirectory<Greeting> directory = new DynamicDirectory<>(Greeting.class, consumer(parameters));
        List<Invoker<Greeting>> list = new ArrayList<>();
        for (Invoker<Greeting> invoker : invokers) { // reading the array, not passing it on, is what @SafeVarargs allows
            list.add(invoker);
        }
        directory.setInvokers(list);
        return directory;
    }

    /** Signals {@code entered}, waits (at most 10 s) for {@code release}, then answers the provider's name. */
    static Reply blockUntil(CountDownLatch entered, CountDownLatch release) {
        return (invocation, provider) -> {
            entered.countDown();
            try {
                if (!release.await(10, TimeUnit.SECONDS)) {
                    throw new RpcException(RpcException.TIMEOUT_EXCEPTION, "test latch never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RpcException(RpcException.NETWORK_EXCEPTION, "interrupted", e);
            }
            return Reply.providerName().reply(invocation, provider);
        };
    }

    static RpcInvocation hello() {
        return new RpcInvocation("hello", new Class<?>[] {String.class}, new Object[] {"ann"});
    }

    static RpcInvocation bye() {
        return new RpcInvocation("bye", new Class<?>[] {String.class}, new Object[] {"ann"});
    }
}
