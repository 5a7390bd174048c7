package dev.weft.rpc.examples.extension;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeProviders;
import dev.weft.rpc.testing.Invocations;
import dev.weft.rpc.testing.IsolatedDirectorExtension;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(IsolatedDirectorExtension.class)
class DrainingLoadBalanceWrapperTest {

    private static final Invocation RUN = Invocations.of(Runnable.class, "run");
    private static final URL CONSUMER = URL.valueOf("consumer://10.0.0.9/java.lang.Runnable?loadbalance=localfirst");

    private final List<FakeProvider<Runnable>> providers = FakeProviders.of(Runnable.class, 3);
    private final List<Invoker<Runnable>> invokers = FakeProviders.invokers(providers);

    /** A balancer that records the lists it is given and picks the last element. */
    private static final class RecordingBalance implements LoadBalance {
        final List<Object> seen = new ArrayList<>();

        @Override
        public <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) throws RpcException {
            seen.add(invokers);
            return invokers.get(invokers.size() - 1);
        }
    }

    @Test
    void noProviderDraining_passesTheSameList() {
        RecordingBalance inner = new RecordingBalance();

        Invoker<Runnable> picked = new DrainingLoadBalanceWrapper(inner).select(invokers, CONSUMER, RUN);

        assertThat(picked).isSameAs(providers.get(2));
        assertThat(inner.seen).singleElement().isSameAs(invokers);
    }

    @Test
    void drainingProviders_areLeftOut_whileOthersServe() {
        providers.get(2).parameter(DrainingLoadBalanceWrapper.DRAINING_KEY, "true");
        RecordingBalance inner = new RecordingBalance();

        Invoker<Runnable> picked = new DrainingLoadBalanceWrapper(inner).select(invokers, CONSUMER, RUN);

        assertThat(picked).isSameAs(providers.get(1));
        assertThat(inner.seen).singleElement().asInstanceOf(InstanceOfAssertFactories.LIST)
                .containsExactly(providers.get(0), providers.get(1));
    }

    @Test
    void everyProviderDraining_offersThemAll() {
        providers.forEach(p -> p.parameter(DrainingLoadBalanceWrapper.DRAINING_KEY, "true"));
        RecordingBalance inner = new RecordingBalance();

        new DrainingLoadBalanceWrapper(inner).select(invokers, CONSUMER, RUN);

        assertThat(inner.seen).singleElement().isSameAs(invokers);
    }

    @Test
    void throughTheLoader_localfirstNeverPicksADrainingProvider(ExtensionDirector director) {
        providers.get(0).parameter(DrainingLoadBalanceWrapper.DRAINING_KEY, "true");
        LoadBalance localfirst = director.getExtensionLoader(LoadBalance.class).getExtension("localfirst");

        for (int i = 0; i < 1_000; i++) {
            assertThat(localfirst.select(invokers, CONSUMER, RUN)).isNotSameAs(providers.get(0));
        }
        assertThat(localfirst).hasToString("draining(localfirst)");
    }
}
