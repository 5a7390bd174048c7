package dev.weft.rpc.loadbalance.archfixture;

/** Architecture-rule fixture: an abstract base other modules' extensions may extend. */
public abstract class AbstractFixtureStrategy implements FixtureSpi {
}
