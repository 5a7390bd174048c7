package dev.weft.rpc.cluster.archfixture;

import dev.weft.rpc.loadbalance.archfixture.AbstractFixtureStrategy;
import dev.weft.rpc.loadbalance.archfixture.FixtureSpi;

/** Architecture-rule fixture: uses only the SPI and the abstract base of another module (allowed). */
public class UsesStrategyInterface extends AbstractFixtureStrategy {
    private final FixtureSpi delegate;

    public UsesStrategyInterface(FixtureSpi delegate) {
        this.delegate = delegate;
    }

    @Override
    public int pick() {
        return delegate.pick();
    }
}
