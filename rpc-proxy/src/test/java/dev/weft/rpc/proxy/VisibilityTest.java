package dev.weft.rpc.proxy;

import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.proxy.fixtures.hidden.HiddenFixtures;

import java.net.URLClassLoader;
import java.util.function.IntBinaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Where generated classes live, and what that means for non-public types (Java 17, no --add-opens). */
class VisibilityTest {

    private static final URL URL = dev.weft.rpc.common.URL.valueOf("weft://127.0.0.1:20880/vault");

    @SuppressWarnings("unchecked")
    private static <T> Invoker<T> invokerOf(ProxyFactory factory, Object impl, Class<?> type) {
        return factory.getInvoker((T) impl, (Class<T>) type, URL);
    }

    @ForEachFactory
    void packagePrivateInterfaceAndTypes_workOnBothSides(Factories factories) {
        Class<?> vault = HiddenFixtures.vaultType();

        Object proxy = factories.factory.getProxy(invokerOf(factories.factory, HiddenFixtures.newVault(), vault));

        assertThat(HiddenFixtures.open(proxy, "k")).isEqualTo("opened k");
        assertThat(HiddenFixtures.count(proxy)).isEqualTo(3);
        assertThat(proxy.getClass().getPackageName()).isEqualTo(vault.getPackageName());
    }

    @ForEachFactory
    void packagePrivateInterface_consumerProxy_passesPackagePrivateValues(Factories factories) {
        Object secret = HiddenFixtures.secret("from invoker");
        FakeProvider<?> invoker = ProxyTargets.of(HiddenFixtures.vaultType()).answering((i, provider) -> RpcResult.of(secret));

        Object proxy = factories.factory.getProxy(invoker);

        assertThat(HiddenFixtures.open(proxy, "k")).isEqualTo("from invoker");
        assertThat(invoker.lastInvocation().getReturnType().getName()).isEqualTo("dev.weft.rpc.proxy.fixtures.hidden.Secret");
    }

    @org.junit.jupiter.api.Test
    void javassist_jdkInterface_getsItsClassesInWeftsPackage() {
        IntBinaryOperator proxy = new JavassistProxyFactory().getProxy(
                ProxyTargets.of(IntBinaryOperator.class).answering(5));

        assertThat(proxy.applyAsInt(1, 2)).isEqualTo(5);
        assertThat(proxy.getClass().getName())
                .startsWith("dev.weft.rpc.proxy.internal.WeftProxy$java_util_function_IntBinaryOperator$");
    }

    @org.junit.jupiter.api.Test
    void javassist_interfaceWhoseLoaderCannotSeeWeft_failsSuggestingJdk() throws Exception {
        try (URLClassLoader blind = new URLClassLoader(
                new java.net.URL[] {IsolatedLoader.class.getProtectionDomain().getCodeSource().getLocation()},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> greeter = blind.loadClass(IsolatedLoader.GREETER);
            FakeProvider<?> invoker = ProxyTargets.of(greeter).answering((i, provider) -> RpcResult.of("jdk works"));

            assertThatThrownBy(() -> new JavassistProxyFactory().getProxy(invoker))
                    .isExactlyInstanceOf(RpcException.class)
                    .hasMessageStartingWith("Interface: dev.weft.rpc.proxy.isolated.Greeter (expected: a class defined "
                            + "next to it (its class loader java.net.URLClassLoader@")
                    .hasMessageEndingWith(" does not see dev.weft.rpc.proxy.internal.ProxyHandler) or in Weft's package "
                            + "(Weft's class loader does not see dev.weft.rpc.proxy.isolated.Greeter); "
                            + "proxy=jdk has neither restriction)");
            Object proxy = new JdkProxyFactory().getProxy(invoker);
            assertThat(greeter.getMethod("greet", String.class).invoke(proxy, "x")).isEqualTo("jdk works");
        }
    }
}
