package dev.weft.rpc.mock.archfixture;

import dev.weft.rpc.proxy.internal.archfixture.Hidden;

/** Architecture-rule fixture: breaks "internal packages are private to their module". */
public class UsesProxyInternal {
    public int value() {
        return Hidden.secret();
    }
}
