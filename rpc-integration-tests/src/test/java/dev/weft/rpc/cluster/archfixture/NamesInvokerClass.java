package dev.weft.rpc.cluster.archfixture;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.loadbalance.archfixture.FixtureInvoker;

/** Architecture-rule fixture: names another module's concrete invoker. */
public class NamesInvokerClass {
    public Invoker<Runnable> invoker() {
        return new FixtureInvoker();
    }
}
