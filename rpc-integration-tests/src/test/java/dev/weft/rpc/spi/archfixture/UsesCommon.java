package dev.weft.rpc.spi.archfixture;

import dev.weft.rpc.common.archfixture.DependsOnSpi;

/** Architecture-rule fixture: the other half of a module cycle. */
public class UsesCommon {
    public String name() {
        return new DependsOnSpi().name();
    }
}
