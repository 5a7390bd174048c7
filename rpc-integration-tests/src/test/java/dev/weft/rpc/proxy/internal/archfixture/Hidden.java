package dev.weft.rpc.proxy.internal.archfixture;

/** Architecture-rule fixture: an internal class of the "proxy" module. */
public final class Hidden {
    public static int secret() {
        return 42;
    }
}
