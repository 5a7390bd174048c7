package dev.weft.rpc.common.archfixture.cycle.b;

import dev.weft.rpc.common.archfixture.cycle.a.A;

/** Architecture-rule fixture: the other half of a package cycle. */
public class B {
    public A a() {
        return new A();
    }
}
