package dev.weft.rpc.common.archfixture.cycle.a;

import dev.weft.rpc.common.archfixture.cycle.b.B;

/** Architecture-rule fixture: one half of a package cycle. */
public class A {
    public B b() {
        return new B();
    }
}
