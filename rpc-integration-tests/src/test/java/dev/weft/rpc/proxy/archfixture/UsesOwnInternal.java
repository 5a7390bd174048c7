package dev.weft.rpc.proxy.archfixture;

import dev.weft.rpc.proxy.internal.archfixture.Hidden;

/** Architecture-rule fixture: a module using its own internal package (allowed). */
public class UsesOwnInternal {
    public int value() {
        return Hidden.secret();
    }
}
