package dev.weft.rpc.protocol;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.filter.CallContext;
import dev.weft.rpc.protocol.internal.ProtocolFilterWrapper;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.DelegatingReplies;
import dev.weft.rpc.testing.FakeProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The filter chains applied by the loader's Protocol wrapper, end to end over injvm. */
class ProtocolFilterWrapperTest {

    private static final String GREETER = "injvm://127.0.0.1/dev.weft.rpc.protocol.Greeter";

    private final ExtensionDirector director = new ExtensionDirector(ProtocolFilterWrapperTest.class.getClassLoader());
    private final Protocol protocol = director.getExtensionLoader(Protocol.class).getAdaptiveExtension();

    @AfterEach
    void close() {
        director.close();
    }

    /** A provider at {@code url} running {@code implementation}, as a proxy factory's invoker would. */
    private static FakeProvider<Greeter> service(Greeter implementation, String url) {
        return FakeProvider.at(Greeter.class, URL.valueOf(url))
                .answering(DelegatingReplies.implementation(Greeter.class, implementation));
    }

    @Test
    void loader_wrapsInjvm_withTheFilterChains() {
        assertThat(director.getExtensionLoader(Protocol.class).getExtension("injvm")).isInstanceOf(ProtocolFilterWrapper.class);
        assertThat(director.getExtensionLoader(Protocol.class).getSupportedExtensions()).contains("injvm");
    }

    @Test
    void attachments_travelFromConsumerContext_toProviderContext() {
        CallContext context = CallContext.of(director);
        AtomicReference<Map<String, String>> seen = new AtomicReference<>();
        protocol.export(service(new SimpleGreeter() {
            @Override
            public String greet(String name) {
                seen.set(context.attachments());
                return "hello " + name;
            }
        }, GREETER));
        Invoker<Greeter> invoker = protocol.refer(Greeter.class, URL.valueOf(GREETER + "?application=shop"));
        CallContext.Scope scope = context.with("trace-id", "t-1");
        try {
            assertThat(invoker.invoke(Calls.greet("ada")).getValue()).isEqualTo("hello ada");
        } finally {
            scope.close();
        }
        assertThat(seen.get()).containsOnly(Map.entry("trace-id", "t-1"), Map.entry("application", "shop"));
    }

    @Test
    void providerChain_exceptionFilter_convertsUndeclaredCheckedExceptions() {
        protocol.export(service(new SimpleGreeter() {
            @Override
            public String read(String path) throws IOException {
                throw new IOException("declared");
            }

            @Override
            public String farewell(String name) {
                throw sneaky(new Exception("undeclared"));
            }
        }, GREETER));
        Invoker<Greeter> invoker = protocol.refer(Greeter.class, URL.valueOf(GREETER));
        assertThat(invoker.invoke(Calls.read("/tmp")).getException()).isInstanceOf(IOException.class).hasMessage("declared");
        assertThat(invoker.invoke(Calls.farewell("ada")).getException()).isInstanceOf(RpcException.class)
                .hasMessage("java.lang.Exception: undeclared");
    }

    @Test
    void providerChain_executes_andConsumerChain_actives_applyThroughTheLoader() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        protocol.export(service(new SimpleGreeter() {
            @Override
            public String greet(String name) {
                inside.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return "hello " + name;
            }
        }, GREETER + "?executes=1"));
        Invoker<Greeter> unlimited = protocol.refer(Greeter.class, URL.valueOf(GREETER));
        Invoker<Greeter> limited = protocol.refer(Greeter.class, URL.valueOf(GREETER + "?actives=1&timeout=50"));
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            Future<Object> held = executor.submit(() -> limited.invoke(Calls.greet("held")).getValue());
            assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(() -> dev.weft.rpc.testing.Calls.invoke(limited, Calls.greet("ada")))
                    .hasMessageContaining("expected: below actives=1;");
            assertThatThrownBy(() -> unlimited.invoke(Calls.greet("ada"))).hasMessageStartingWith("Server busy:");
            release.countDown();
            assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo("hello held");
        } finally {
            executor.shutdownNow();
            assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void badFilterConfiguration_failsExportAndRefer_beforeAnythingIsOpened() {
        assertThatThrownBy(() -> protocol.export(service(new SimpleGreeter(), GREETER + "?executes=-2")))
                .isInstanceOf(RpcException.class)
                .hasMessageContaining("Cannot build the provider filter chain for " + GREETER + "?executes=-2")
                .hasMessageContaining("executes: -2 (expected: >= 0");
        Invoker<Greeter> probe = protocol.refer(Greeter.class, URL.valueOf(GREETER));
        assertThat(probe.isAvailable()).isFalse();
        assertThatThrownBy(() -> protocol.refer(Greeter.class, URL.valueOf(GREETER + "?filter=nosuch")))
                .isInstanceOf(RpcException.class)
                .hasMessageContaining("Cannot build the consumer filter chain")
                .hasMessageContaining("No extension 'nosuch'");
    }

    @Test
    void referWhoseChainCannotBeBuilt_destroysTheInvokerTheInnerProtocolOpened() {
        FakeProvider<Greeter> opened = FakeProvider.at(Greeter.class, URL.valueOf(GREETER + "?filter=rec-unchainable"));
        Protocol inner = new Protocol() {
            @Override
            public int getDefaultPort() {
                return 0;
            }

            @Override
            public <T> Exporter<T> export(Invoker<T> invoker) {
                throw new UnsupportedOperationException("refer only");
            }

            @Override
            @SuppressWarnings("unchecked")
            public <T> Invoker<T> refer(Class<T> type, URL url) {
                return (Invoker<T>) opened;
            }

            @Override
            public void destroy() {
            }
        };
        ProtocolFilterWrapper wrapper = new ProtocolFilterWrapper(inner);
        wrapper.setExtensionDirector(director);
        assertThatThrownBy(() -> wrapper.refer(Greeter.class, opened.getUrl()))
                .isInstanceOf(RpcException.class)
                .hasMessageContaining("Cannot build the consumer filter chain")
                .hasMessageContaining("no counters for 127.0.0.1");
        assertThat(opened.isDestroyed()).isTrue();
    }

    @Test
    void wrappedProtocol_exportsUnexportsAndDestroys_throughTheProtocolItWraps() {
        Protocol injvm = director.getExtensionLoader(Protocol.class).getExtension("injvm");
        FakeProvider<Greeter> first = service(new SimpleGreeter(), GREETER);
        Exporter<Greeter> exporter = injvm.export(first);
        Invoker<Greeter> invoker = injvm.refer(Greeter.class, URL.valueOf(GREETER));
        assertThat(invoker.invoke(Calls.greet("ada")).getValue()).isEqualTo("hello ada");

        exporter.unexport();
        assertThat(invoker.isAvailable()).isFalse();
        assertThat(first.isDestroyed()).isTrue();

        FakeProvider<Greeter> second = service(new SimpleGreeter(), GREETER);
        injvm.export(second);
        injvm.destroy();
        assertThat(second.isDestroyed()).isTrue();
        assertThatThrownBy(() -> injvm.refer(Greeter.class, URL.valueOf(GREETER)))
                .isInstanceOf(RpcException.class).hasMessageStartingWith("injvm protocol: destroyed");
    }

    @Test
    void closingTheDirector_destroysTheProtocol() {
        FakeProvider<Greeter> exported = service(new SimpleGreeter(), GREETER);
        protocol.export(exported);
        Invoker<Greeter> invoker = protocol.refer(Greeter.class, URL.valueOf(GREETER));
        director.close();
        assertThat(exported.isDestroyed()).isTrue();
        assertThat(invoker.isAvailable()).isFalse();
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> RuntimeException sneaky(Throwable e) throws E {
        throw (E) e;
    }

    private static class SimpleGreeter implements Greeter {
        @Override
        public String greet(String name) {
            return "hello " + name;
        }

        @Override
        public String farewell(String name) {
            return "bye " + name;
        }

        @Override
        public String read(String path) throws IOException {
            return path;
        }
    }
}
