package dev.weft.rpc.common.archfixture;

import dev.weft.rpc.spi.archfixture.UsesCommon;

/** Architecture-rule fixture: rpc-common reaching up into rpc-spi (and closing a module cycle). */
public class DependsOnSpi {
    public String name() {
        return UsesCommon.class.getName();
    }
}
