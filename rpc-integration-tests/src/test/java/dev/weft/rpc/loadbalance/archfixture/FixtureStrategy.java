package dev.weft.rpc.loadbalance.archfixture;

/** Architecture-rule fixture: a concrete strategy, to be reached only by name from other modules. */
public class FixtureStrategy extends AbstractFixtureStrategy {
    @Override
    public int pick() {
        return 1;
    }
}
