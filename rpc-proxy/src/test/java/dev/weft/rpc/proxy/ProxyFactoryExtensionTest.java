package dev.weft.rpc.proxy;

import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionLoader;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The descriptor and {@code proxy=} selection through the extension loader. */
class ProxyFactoryExtensionTest {

    private ExtensionDirector director;
    private ExtensionLoader<ProxyFactory> loader;

    @BeforeEach
    void createDirector() {
        director = new ExtensionDirector(getClass().getClassLoader());
        loader = director.getExtensionLoader(ProxyFactory.class);
    }

    @AfterEach
    void closeDirector() {
        director.close();
    }

    private static FakeProvider<SampleService> invokerAt(String url) {
        return FakeProvider.at(SampleService.class, URL.valueOf(url)).answering("remote");
    }

    @Test
    void descriptor_registersBothFactories_withJavassistAsDefault() {
        assertThat(loader.getSupportedExtensions()).containsExactly("javassist", "jdk");
        assertThat(loader.getDefaultExtensionName()).isEqualTo("javassist");
        assertThat(loader.getExtension("javassist")).isInstanceOf(JavassistProxyFactory.class);
        assertThat(loader.getExtension("jdk")).isInstanceOf(JdkProxyFactory.class);
        assertThat(loader.getProblems()).isEmpty();
    }

    @Test
    void adaptiveGetProxy_readsProxyKeyFromTheInvokersUrl() {
        ProxyFactory adaptive = loader.getAdaptiveExtension();

        SampleService jdk = adaptive.getProxy(invokerAt("weft://127.0.0.1:20880/sample?proxy=jdk"));
        SampleService javassist = adaptive.getProxy(invokerAt("weft://127.0.0.1:20880/sample?proxy=javassist"));
        SampleService byDefault = adaptive.getProxy(invokerAt("weft://127.0.0.1:20880/sample"));

        assertThat(Proxy.isProxyClass(jdk.getClass())).isTrue();
        assertThat(javassist.getClass().getName()).startsWith("dev.weft.rpc.proxy.SampleService$$WeftProxy$");
        assertThat(byDefault.getClass()).isSameAs(javassist.getClass());
        assertThat(jdk.greet("ann")).isEqualTo("remote");
        assertThat(javassist.greet("ann")).isEqualTo("remote");
    }

    @Test
    void adaptiveGetInvoker_readsProxyKeyFromTheUrlArgument() {
        ProxyFactory adaptive = loader.getAdaptiveExtension();

        Invoker<SampleService> jdk = adaptive.getInvoker(new SampleServiceImpl(), SampleService.class,
                URL.valueOf("weft://127.0.0.1:20880/sample?proxy=jdk"));
        Invoker<SampleService> byDefault = adaptive.getInvoker(new SampleServiceImpl(), SampleService.class,
                URL.valueOf("weft://127.0.0.1:20880/sample"));

        assertThat(jdk.toString()).startsWith("jdk invoker of dev.weft.rpc.proxy.SampleService -> ");
        assertThat(byDefault.toString()).startsWith("javassist invoker of dev.weft.rpc.proxy.SampleService -> ");
        assertThat(adaptive.getProxy(jdk).add(20, 22)).isEqualTo(42);
    }

    @Test
    void adaptive_unknownProxyName_failsNamingTheAvailableFactories() {
        ProxyFactory adaptive = loader.getAdaptiveExtension();
        FakeProvider<SampleService> invoker = invokerAt("weft://127.0.0.1:20880/sample?proxy=jdkk");

        assertThatThrownBy(() -> adaptive.getProxy(invoker))
                .hasMessageContaining("jdkk")
                .hasMessageContaining("[javassist, jdk]");
    }
}
