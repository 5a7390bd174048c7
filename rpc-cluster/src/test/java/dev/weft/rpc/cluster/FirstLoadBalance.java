package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Picks the first invoker: makes every selection in these tests exact. Registered as {@code first}. */
public final class FirstLoadBalance implements LoadBalance {

    final AtomicInteger selections = new AtomicInteger();

    @Override
    public <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) {
        selections.incrementAndGet();
        return invokers.get(0);
    }
}
