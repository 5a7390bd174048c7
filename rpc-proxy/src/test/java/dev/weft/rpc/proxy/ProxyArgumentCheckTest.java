package dev.weft.rpc.proxy;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.URL;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What {@code getProxy} says about an invoker that names no interface, and how the factories name themselves. */
class ProxyArgumentCheckTest {

    /** An invoker that does not say which interface it serves. */
    private static final class NoInterfaceInvoker implements Invoker<Object> {
        @Override
        public Class<Object> getInterface() {
            return null;
        }

        @Override
        public Result invoke(Invocation invocation) {
            throw new AssertionError("not called");
        }

        @Override
        public URL getUrl() {
            return ProxyTargets.URL;
        }

        @Override
        public boolean isAvailable() {
            return true;
        }

        @Override
        public void destroy() {
        }

        @Override
        public String toString() {
            return "no-interface invoker";
        }
    }

    @ForEachFactory
    void getProxy_ofAnInvokerWithoutInterface_isRefused_namingTheInvoker(Factories factories) {
        assertThatThrownBy(() -> factories.factory.getProxy(new NoInterfaceInvoker()))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("invoker.getInterface(): null (expected: the service interface) for no-interface invoker");
    }

    @ForEachFactory
    void factory_isNamedAsItsExtension(Factories factories) {
        assertThat(factories.factory.toString())
                .isEqualTo(factories == Factories.JDK ? JdkProxyFactory.NAME : JavassistProxyFactory.NAME);
    }
}
