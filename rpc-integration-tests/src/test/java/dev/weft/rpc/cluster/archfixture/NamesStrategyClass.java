package dev.weft.rpc.cluster.archfixture;

import dev.weft.rpc.loadbalance.archfixture.FixtureStrategy;

/** Architecture-rule fixture: breaks "strategies are reached by name". */
public class NamesStrategyClass {
    public int pick() {
        return new FixtureStrategy().pick();
    }
}
