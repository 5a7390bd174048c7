package dev.weft.rpc.protocol.injvm;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Calls;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Greeter;
import dev.weft.rpc.testing.DelegatingReplies;
import dev.weft.rpc.testing.FakeProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InjvmProtocolTest {

    private static final String GREETER = "injvm://127.0.0.1/dev.weft.rpc.protocol.Greeter";

    private final InjvmProtocol protocol = new InjvmProtocol();

    @AfterEach
    void destroy() {
        protocol.destroy();
    }

    /** A provider at {@code url} running {@code implementation}, as a proxy factory's invoker would. */
    private static FakeProvider<Greeter> service(Greeter implementation, String url) {
        return FakeProvider.at(Greeter.class, URL.valueOf(url))
                .answering(DelegatingReplies.implementation(Greeter.class, implementation));
    }

    private static FakeProvider<Greeter> provider(String url, String greeting) {
        return service(new FixedGreeter(greeting), url);
    }

    @Test
    void exportThenRefer_callsTheServiceOnTheCallersThread_passingObjectsAsTheyAre() {
        List<Object> seen = new ArrayList<>();
        Greeter recording = new FixedGreeter("hi") {
            @Override
            public String greet(String name) {
                seen.add(name);
                seen.add(Thread.currentThread());
                return name;
            }
        };
        protocol.export(service(recording, GREETER));
        Invoker<Greeter> invoker = protocol.refer(Greeter.class, URL.valueOf(GREETER));
        String argument = new String("ada");
        assertThat(invoker.getInterface()).isEqualTo(Greeter.class);
        assertThat(invoker.isAvailable()).isTrue();
        assertThat(invoker.invoke(Calls.greet(argument)).getValue()).isSameAs(argument);
        assertThat(seen).containsExactly(argument, Thread.currentThread());
        assertThat(seen.get(0)).isSameAs(argument);
    }

    @Test
    void serviceKey_groupAndVersion_keepServicesApart() {
        protocol.export(provider(GREETER + "?version=1.0", "v1"));
        protocol.export(provider(GREETER + "?version=2.0", "v2"));
        protocol.export(provider(GREETER + "?group=eu&version=2.0", "eu v2"));
        assertThat(protocol.refer(Greeter.class, URL.valueOf(GREETER + "?version=2.0")).invoke(Calls.greet("ada")).getValue())
                .isEqualTo("v2 ada");
        assertThat(protocol.refer(Greeter.class, URL.valueOf("injvm://localhost:1234/x?interface=dev.weft.rpc.protocol.Greeter&group=eu&version=2.0"))
                .invoke(Calls.greet("ada")).getValue()).isEqualTo("eu v2 ada");
        assertThat(protocol.refer(Greeter.class, URL.valueOf(GREETER)).isAvailable()).isFalse();
    }

    @Test
    void export_sameKeyTwice_failsClearly() {
        protocol.export(provider(GREETER + "?version=1.0", "a"));
        assertThatThrownBy(() -> protocol.export(provider(GREETER + "?version=1.0&weight=5", "b")))
                .isInstanceOf(RpcException.class)
                .hasMessageStartingWith("injvm export: dev.weft.rpc.protocol.Greeter:1.0 (expected: a service not exported yet");
    }

    @Test
    void referBeforeExport_isUnavailable_failsNotProcessed_thenWorksOnceExported() {
        protocol.export(provider(GREETER + "?version=9", "other"));
        Invoker<Greeter> invoker = protocol.refer(Greeter.class, URL.valueOf(GREETER));
        assertThat(invoker.isAvailable()).isFalse();
        assertThatThrownBy(() -> invoker.invoke(Calls.greet("ada")))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                .hasMessage("injvm service: dev.weft.rpc.protocol.Greeter (expected: an exported service; exported in this JVM: "
                        + "[dev.weft.rpc.protocol.Greeter:9]; not run, safe to retry)");
        protocol.export(provider(GREETER, "hello"));
        assertThat(invoker.isAvailable()).isTrue();
        assertThat(invoker.invoke(Calls.greet("ada")).getValue()).isEqualTo("hello ada");
    }

    @Test
    void referToAMissingKey_listsTheExportedKeysSorted() {
        for (String version : new String[] {"9", "1", "5", "30", "12", "7"}) {
            protocol.export(provider(GREETER + "?version=" + version, "v" + version));
        }
        Invoker<Greeter> invoker = protocol.refer(Greeter.class, URL.valueOf(GREETER + "?version=2"));
        assertThatThrownBy(() -> invoker.invoke(Calls.greet("ada")))
                .hasMessageContaining("exported in this JVM: [dev.weft.rpc.protocol.Greeter:1, dev.weft.rpc.protocol.Greeter:12, "
                        + "dev.weft.rpc.protocol.Greeter:30, dev.weft.rpc.protocol.Greeter:5, dev.weft.rpc.protocol.Greeter:7, "
                        + "dev.weft.rpc.protocol.Greeter:9]");
    }

    @Test
    void unexport_makesReferredInvokersUnavailable_destroysTheExportedInvoker_andFreesTheKey() {
        FakeProvider<Greeter> exported = provider(GREETER, "hello");
        Exporter<Greeter> exporter = protocol.export(exported);
        assertThat(exporter.getInvoker()).isSameAs(exported);
        Invoker<Greeter> invoker = protocol.refer(Greeter.class, URL.valueOf(GREETER));
        exporter.unexport();
        exporter.unexport();
        assertThat(invoker.isAvailable()).isFalse();
        assertThat(exported.isDestroyed()).isTrue();
        assertThatThrownBy(() -> invoker.invoke(Calls.greet("ada"))).isInstanceOf(RpcException.class)
                .hasMessageContaining("exported in this JVM: []");
        protocol.export(provider(GREETER, "again"));
        assertThat(invoker.invoke(Calls.greet("ada")).getValue()).isEqualTo("again ada");
    }

    @Test
    void unexportOfAReplacedExporter_leavesTheNewOneExported() {
        Exporter<Greeter> first = protocol.export(provider(GREETER, "first"));
        first.unexport();
        protocol.export(provider(GREETER, "second"));
        first.unexport();
        assertThat(protocol.refer(Greeter.class, URL.valueOf(GREETER)).invoke(Calls.greet("ada")).getValue()).isEqualTo("second ada");
    }

    @Test
    void destroyedInvoker_refusesCalls_asNotProcessed() {
        protocol.export(provider(GREETER, "hello"));
        Invoker<Greeter> invoker = protocol.refer(Greeter.class, URL.valueOf(GREETER));
        invoker.destroy();
        assertThat(invoker.isAvailable()).isFalse();
        assertThatThrownBy(() -> invoker.invoke(Calls.greet("ada")))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                .hasMessageContaining("destroyed");
    }

    @Test
    void destroy_unexportsEverything_destroysInvokers_andRefusesNewWork() {
        FakeProvider<Greeter> exported = provider(GREETER, "hello");
        protocol.export(exported);
        Invoker<Greeter> invoker = protocol.refer(Greeter.class, URL.valueOf(GREETER));
        protocol.destroy();
        assertThat(exported.isDestroyed()).isTrue();
        assertThat(invoker.isAvailable()).isFalse();
        assertThatThrownBy(() -> invoker.invoke(Calls.greet("ada"))).hasMessageContaining("destroyed");
        assertThatThrownBy(() -> protocol.export(provider(GREETER, "late"))).isInstanceOf(RpcException.class)
                .hasMessageStartingWith("injvm protocol: destroyed");
        assertThatThrownBy(() -> protocol.refer(Greeter.class, URL.valueOf(GREETER))).isInstanceOf(RpcException.class)
                .hasMessageStartingWith("injvm protocol: destroyed");
    }

    @Test
    void destroy_racingExportsAndRefers_leavesNothingLive_andRefusesTheRestClearly() throws Exception {
        for (int round = 0; round < 20; round++) {
            InjvmProtocol racing = new InjvmProtocol();
            List<FakeProvider<Greeter>> exportedProviders = new CopyOnWriteArrayList<>();
            List<Invoker<Greeter>> referred = new CopyOnWriteArrayList<>();
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService threads = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> tasks = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int thread = t;
                    tasks.add(threads.submit(() -> {
                        start.await();
                        for (int i = 0; i < 25; i++) {
                            String url = GREETER + "?group=t" + thread + "-" + i;
                            try {
                                FakeProvider<Greeter> provider = provider(url, "hi");
                                racing.export(provider);
                                exportedProviders.add(provider);
                                referred.add(racing.refer(Greeter.class, URL.valueOf(url)));
                            } catch (RpcException e) {
                                assertThat(e).hasMessageStartingWith("injvm protocol: destroyed");
                            }
                        }
                        return null;
                    }));
                }
                start.countDown();
                racing.destroy();
                for (Future<?> task : tasks) {
                    task.get(30, TimeUnit.SECONDS);
                }
            } finally {
                threads.shutdownNow();
                assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(exportedProviders).allSatisfy(provider -> assertThat(provider.isDestroyed()).isTrue());
            assertThat(referred).allSatisfy(invoker -> assertThat(invoker.isAvailable()).isFalse());
            assertThat(racing.exportedKeys()).isEmpty();
        }
    }

    @Test
    void badUrls_failClearly() {
        assertThatThrownBy(() -> protocol.refer(Greeter.class, URL.valueOf("weft://127.0.0.1/dev.weft.rpc.protocol.Greeter")))
                .isInstanceOf(RpcException.class)
                .hasMessage("injvm refer: weft://127.0.0.1/dev.weft.rpc.protocol.Greeter (expected: an injvm:// URL, "
                        + "e.g. injvm://127.0.0.1/dev.weft.rpc.protocol.Greeter)");
        assertThatThrownBy(() -> protocol.export(provider("injvm://127.0.0.1/com.example.Other", "x")))
                .isInstanceOf(RpcException.class)
                .hasMessage("injvm export: interface com.example.Other in injvm://127.0.0.1/com.example.Other "
                        + "(expected: dev.weft.rpc.protocol.Greeter, the invoker's interface)");
        assertThatThrownBy(() -> protocol.refer(Greeter.class, URL.valueOf("injvm://127.0.0.1")))
                .isInstanceOf(RpcException.class)
                .hasMessageContaining("service interface: \"\"");
    }

    @Test
    void serviceExceptions_travelInTheResult() {
        protocol.export(service(new FixedGreeter("x") {
            @Override
            public String greet(String name) {
                throw new IllegalArgumentException("name: " + name + " (expected: not blank)");
            }
        }, GREETER));
        RpcInvocation call = Calls.greet(" ");
        assertThat(protocol.refer(Greeter.class, URL.valueOf(GREETER)).invoke(call).getException())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("name:   (expected: not blank)");
    }

    private static class FixedGreeter implements Greeter {
        private final String greeting;

        FixedGreeter(String greeting) {
            this.greeting = greeting;
        }

        @Override
        public String greet(String name) {
            return greeting + " " + name;
        }

        @Override
        public String farewell(String name) {
            return "bye " + name;
        }

        @Override
        public String read(String path) {
            return path;
        }
    }
}
