package dev.weft.rpc.examples.extension;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The jar as users meet it: on the class path, found by the loader, picked by {@code loadbalance=localfirst}. */
class LoaderSelectionTest {

    private static final Invocation RUN = new RpcInvocation("run", new Class<?>[0], new Object[0]);

    private final ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader());
    private final ExtensionLoader<LoadBalance> loader = director.getExtensionLoader(LoadBalance.class);

    @AfterEach
    void close() {
        director.close();
    }

    @Test
    void localfirst_isRegistered_besideTheBuiltInBalancers() {
        assertThat(loader.getSupportedExtensions()).contains("localfirst", "random", "roundrobin");
        assertThat(loader.getExtension("localfirst")).isInstanceOf(LocalFirstLoadBalance.class);
        assertThat(loader.getExtensionName(LocalFirstLoadBalance.class)).isEqualTo("localfirst");
    }

    @Test
    void adaptiveBalancer_routesToLocalfirst_byTheConsumerUrl() {
        FakeInvoker eu = FakeInvoker.provider("eu-a", "zone=eu");
        FakeInvoker us = FakeInvoker.provider("us-b", "zone=us");
        URL consumer = URL.valueOf("consumer://10.0.0.9/java.lang.Runnable?loadbalance=localfirst&localfirst.zone=eu");
        LoadBalance adaptive = loader.getAdaptiveExtension();

        for (int i = 0; i < 200; i++) {
            assertThat(adaptive.select(List.<Invoker<Runnable>>of(us, eu), consumer, RUN)).isSameAs(eu);
        }
    }

    @Test
    void methodLevelKey_selectsLocalfirst_forThatMethodOnly() {
        FakeInvoker eu = FakeInvoker.provider("eu-a", "zone=eu");
        FakeInvoker us = FakeInvoker.provider("us-b", "zone=us");
        URL consumer = URL.valueOf(
                "consumer://10.0.0.9/java.lang.Runnable?run.loadbalance=localfirst&localfirst.zone=us");
        LoadBalance adaptive = loader.getAdaptiveExtension();

        for (int i = 0; i < 200; i++) {
            assertThat(adaptive.select(List.<Invoker<Runnable>>of(eu, us), consumer, RUN)).isSameAs(us);
        }
    }
}
