package dev.weft.rpc.proxy;

/** The two factories every contract test runs against. */
enum Factories {
    JAVASSIST(new JavassistProxyFactory()),
    JDK(new JdkProxyFactory());

    final ProxyFactory factory;

    Factories(ProxyFactory factory) {
        this.factory = factory;
    }
}
