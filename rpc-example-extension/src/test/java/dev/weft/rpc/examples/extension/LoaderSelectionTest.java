package dev.weft.rpc.examples.extension;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionLoader;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Invocations;
import dev.weft.rpc.testing.IsolatedDirectorExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The jar as users meet it: on the class path, found by the loader, picked by URL keys. */
@ExtendWith(IsolatedDirectorExtension.class)
class LoaderSelectionTest {

    private static final Invocation RUN = Invocations.of(Runnable.class, "run");

    private static FakeProvider<Runnable> provider(String host, String zone) {
        return FakeProvider.of(Runnable.class, host).parameter(LocalFirstLoadBalance.PROVIDER_ZONE_KEY, zone);
    }

    @Test
    void localfirst_isRegistered_besideTheBuiltInBalancers_andWrapped(ExtensionDirector director) {
        ExtensionLoader<LoadBalance> loader = director.getExtensionLoader(LoadBalance.class);

        assertThat(loader.getSupportedExtensions()).contains("localfirst", "random", "roundrobin");
        assertThat(loader.getExtension("localfirst", false)).isInstanceOf(LocalFirstLoadBalance.class);
        assertThat(loader.getExtension("localfirst")).isInstanceOfSatisfying(DrainingLoadBalanceWrapper.class,
                wrapper -> assertThat(wrapper.unwrap()).isSameAs(loader.getExtension("localfirst", false)));
        assertThat(loader.getExtensionName(LocalFirstLoadBalance.class)).isEqualTo("localfirst");
    }

    @Test
    void wrapper_matchesOnlyLocalfirst(ExtensionDirector director) {
        ExtensionLoader<LoadBalance> loader = director.getExtensionLoader(LoadBalance.class);

        for (String name : List.of("random", "roundrobin", "leastactive")) {
            assertThat(loader.getExtension(name)).as(name).isNotInstanceOf(DrainingLoadBalanceWrapper.class);
        }
    }

    @Test
    void adaptiveBalancer_routesToLocalfirst_byTheConsumerUrl(ExtensionDirector director) {
        FakeProvider<Runnable> eu = provider("eu-a", "eu");
        FakeProvider<Runnable> us = provider("us-b", "us");
        URL consumer = URL.valueOf("consumer://10.0.0.9/java.lang.Runnable?loadbalance=localfirst&localfirst.zone=eu");
        LoadBalance adaptive = director.getExtensionLoader(LoadBalance.class).getAdaptiveExtension();

        for (int i = 0; i < 200; i++) {
            assertThat(adaptive.select(List.<Invoker<Runnable>>of(us, eu), consumer, RUN)).isSameAs(eu);
        }
    }

    @Test
    void methodLevelKey_selectsLocalfirst_forThatMethodOnly(ExtensionDirector director) {
        FakeProvider<Runnable> eu = provider("eu-a", "eu");
        FakeProvider<Runnable> us = provider("us-b", "us");
        URL consumer = URL.valueOf(
                "consumer://10.0.0.9/java.lang.Runnable?run.loadbalance=localfirst&localfirst.zone=us");
        LoadBalance adaptive = director.getExtensionLoader(LoadBalance.class).getAdaptiveExtension();

        for (int i = 0; i < 200; i++) {
            assertThat(adaptive.select(List.<Invoker<Runnable>>of(eu, us), consumer, RUN)).isSameAs(us);
        }
    }

    @Test
    void primarybackup_isRegistered_andChosenByTheClusterKey(ExtensionDirector director) {
        ExtensionLoader<Cluster> loader = director.getExtensionLoader(Cluster.class);

        assertThat(loader.getSupportedExtensions()).contains("primarybackup", "failover");
        assertThat(loader.getExtension("primarybackup")).isInstanceOf(PrimaryBackupCluster.class);
    }

    @Test
    void tenant_isRegistered_asAProviderFilter(ExtensionDirector director) {
        ExtensionLoader<Filter> loader = director.getExtensionLoader(Filter.class);

        assertThat(loader.getSupportedExtensions()).contains("tenant");
        assertThat(loader.getExtension("tenant")).isInstanceOf(TenantFilter.class);
    }
}
