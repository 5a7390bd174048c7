package dev.weft.rpc.registry;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.loadbalance.CallStats;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeTicker;
import dev.weft.rpc.testing.HeldCalls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RegistryDirectoryTest {

    private final Fixture fixture = new Fixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    private static RpcInvocation call(String method) {
        return new RpcInvocation(method, new Class<?>[] {String.class}, new Object[] {"ada"});
    }

    @Test
    void listsProvidersOfTheService_andFollowsRegistrations() {
        fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.1:1");

        URL second = fixture.provider("10.0.0.2:2", "");
        assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.1:1", "10.0.0.2:2");
        assertThat(directory.list(call("sayHello")).get(0).invoke(call("sayHello")).getValue()).isEqualTo("10.0.0.1:1");

        fixture.registry.unregister(second);
        assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.1:1");
    }

    @Test
    void keepsOnlyProvidersOfTheSameGroupAndVersion() {
        fixture.provider("10.0.0.1:1", "");
        fixture.provider("10.0.0.2:2", "group=blue");
        fixture.provider("10.0.0.3:3", "group=blue&version=2.0");
        fixture.provider("10.0.0.4:4", "version=2.0");

        assertThat(Fixture.addresses(fixture.directory())).containsExactly("10.0.0.1:1");
        assertThat(Fixture.addresses(fixture.directory(Fixture.CONSUMER + "&group=blue"))).containsExactly("10.0.0.2:2");
        assertThat(Fixture.addresses(fixture.directory(Fixture.CONSUMER + "&group=blue&version=2.0")))
                .containsExactly("10.0.0.3:3");
        assertThat(Fixture.addresses(fixture.directory(Fixture.CONSUMER + "&version=2.0"))).containsExactly("10.0.0.4:4");
    }

    @Test
    void providerUrl_carriesConsumerParameters_butKeepsItsOwnWeightAndGroup() {
        fixture.provider("10.0.0.1:1", "weight=200&timeout=5000&timestamp=42");
        RegistryDirectory<DemoService> directory = fixture.directory(Fixture.CONSUMER + "&timeout=300&timestamp=99");

        URL view = directory.getInvokers().get(0).getUrl();
        assertThat(view.getParameter("timeout")).isEqualTo("300");
        assertThat(view.getParameter("weight")).isEqualTo("200");
        assertThat(view.getParameter("timestamp")).isEqualTo("42");
        assertThat(view.getParameter("application")).isEqualTo("shop");
    }

    @Test
    void explicitlyEmptyProviders_emptyTheDirectory() {
        URL only = fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        fixture.registry.unregister(only);

        assertThat(directory.getInvokers()).isEmpty();
        assertThat(directory.list(call("sayHello"))).isEmpty();
        assertThat(fixture.protocol.live()).isZero();
    }

    @Test
    void emptyProtection_keepsTheLastProviders_untilProvidersReturn() {
        URL first = fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory(Fixture.CONSUMER + "&enable-empty-protection=true");
        fixture.registry.unregister(first);
        assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.1:1");

        fixture.provider("10.0.0.2:2", "");
        assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.2:2");
        assertThat(fixture.protocol.live()).isEqualTo(1);
    }

    @Test
    void parameterOnlyOverride_keepsTheProvidersCallStatistics() {
        fixture.provider("10.0.0.1:1", "weight=100");
        RegistryDirectory<DemoService> directory = fixture.directory();
        CallStats stats = CallStats.of(fixture.director);
        Invoker<DemoService> before = directory.getInvokers().get(0);
        stats.get(before).startCall();

        fixture.override("0.0.0.0", "weight=300");
        Invoker<DemoService> after = directory.getInvokers().get(0);

        assertThat(after).isNotSameAs(before);
        assertThat(stats.get(after).inFlight()).isEqualTo(1);
        assertThat(stats.get(after)).isSameAs(stats.get(before));
    }

    @Test
    void parameterOnlyOverride_reusesTheProtocolInvoker_andKeepsItsConnection() {
        fixture.provider("10.0.0.1:1", "weight=100");
        RegistryDirectory<DemoService> directory = fixture.directory();
        Invoker<DemoService> before = ((ProviderView<DemoService>) directory.getInvokers().get(0)).underlying();

        URL rule = fixture.override("0.0.0.0", "weight=300&timeout=50&sayHello.retries=0");
        ProviderView<DemoService> during = (ProviderView<DemoService>) directory.getInvokers().get(0);
        assertThat(during.underlying()).isSameAs(before);
        assertThat(during.getUrl().getParameter("weight")).isEqualTo("300");

        fixture.registry.unregister(rule);
        ProviderView<DemoService> after = (ProviderView<DemoService>) directory.getInvokers().get(0);
        assertThat(after.underlying()).isSameAs(before);
        assertThat(after.getUrl().getParameter("weight")).isEqualTo("100");
        assertThat(fixture.protocol.referred.get()).isEqualTo(1);
        assertThat(fixture.protocol.destroyed()).isZero();
    }

    @Test
    void unrelatedChange_keepsTheSameViewInstances() {
        fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        Invoker<DemoService> view = directory.getInvokers().get(0);

        fixture.override("0.0.0.0:9999", "weight=1");
        assertThat(directory.getInvokers().get(0)).isSameAs(view);
    }

    @Test
    void providerJoiningOrLeaving_keepsTheOtherProvidersViews_underRulesToo_andRemovingTheRuleRestoresThem() {
        for (int i = 1; i <= 5; i++) {
            fixture.provider("10.0.0." + i + ":" + i, "weight=100");
        }
        RegistryDirectory<DemoService> directory = fixture.directory();
        URL rule = fixture.override("10.0.0.2:2", "weight=300");
        List<Invoker<DemoService>> before = directory.getInvokers();
        Map<String, String> weightsBefore = Fixture.providerValues(directory, "weight");

        URL joining = fixture.provider("10.0.0.6:6", "weight=100");
        List<Invoker<DemoService>> joined = directory.getInvokers();
        assertThat(joined).hasSize(6);
        assertThat(joined).containsAll(before); // the same view instances, rule applied or not
        fixture.registry.unregister(joining);
        assertThat(directory.getInvokers()).containsExactlyElementsOf(before);
        assertThat(fixture.protocol.referred.get()).isEqualTo(6);
        assertThat(fixture.protocol.destroyed()).isEqualTo(1);
        assertThat(Fixture.providerValues(directory, "weight")).isEqualTo(weightsBefore).containsEntry("10.0.0.2:2", "300");

        fixture.registry.unregister(rule);
        assertThat(Fixture.providerValues(directory, "weight")).containsEntry("10.0.0.2:2", "100");
        fixture.provider("10.0.0.7:7", "weight=100");
        fixture.override("10.0.0.2:2", "weight=300");
        fixture.registry.unregister(URL.valueOf("test://10.0.0.7:7/" + Fixture.SERVICE + "?weight=100"));
        assertThat(Fixture.providerValues(directory, "weight")).isEqualTo(weightsBefore);
    }

    @Test
    void providerReRegisteredWithOtherParameters_isReferredAnew_andTheOldOneDestroyed() {
        URL v1 = fixture.provider("10.0.0.1:1", "serialization=json");
        RegistryDirectory<DemoService> directory = fixture.directory();
        fixture.registry.unregister(v1);
        fixture.provider("10.0.0.1:1", "serialization=cbor");

        assertThat(directory.getInvokers().get(0).getUrl().getParameter("serialization")).isEqualTo("cbor");
        assertThat(fixture.protocol.referred.get()).isEqualTo(2);
        assertThat(fixture.protocol.destroyed()).isEqualTo(1);
    }

    @Test
    void removedProvider_isDestroyedOnlyAfterItsCallInFlightReturns() throws Exception {
        URL provider = fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        Invoker<DemoService> view = directory.getInvokers().get(0);
        FakeProvider<?> protocolInvoker = fixture.protocol.invokers.get(0);
        HeldCalls held = protocolInvoker.holdCalls();
        CompletableFuture<Object> inFlight = CompletableFuture.supplyAsync(() -> view.invoke(call("block")).getValue());
        assertThat(held.awaitHeld(1, Duration.ofSeconds(10))).isTrue();

        fixture.registry.unregister(provider);
        assertThat(directory.getInvokers()).isEmpty();
        assertThat(protocolInvoker.isDestroyed()).isFalse();

        held.releaseAll();
        assertThat(inFlight.get(10, TimeUnit.SECONDS)).isEqualTo("10.0.0.1:1");
        assertThat(protocolInvoker.isDestroyed()).isTrue();
    }

    @Test
    void nothingIsPublished_untilProvidersRulesAndRoutingRulesHaveAllArrived() {
        ManualRegistry registry = new ManualRegistry();
        RegistryDirectory<DemoService> directory = RegistryDirectory
                .builder(DemoService.class, URL.valueOf(Fixture.CONSUMER), registry).director(fixture.director).build();
        registry.notifyAll(List.of(URL.valueOf("test://10.0.0.1:1/" + Fixture.SERVICE)));
        assertThat(directory.isReady()).isFalse();
        assertThat(directory.getInvokers()).isEmpty();
        assertThat(fixture.protocol.referred.get()).isZero();

        registry.notifyAll(List.of(URL.valueOf("override://10.0.0.1:1/" + Fixture.SERVICE + "?disabled=true")));
        assertThat(directory.isReady()).isFalse();
        assertThat(fixture.protocol.referred.get()).isZero();

        registry.notifyAll(List.of(Categories.emptyMarker(URL.valueOf(Fixture.CONSUMER), Categories.ROUTERS)));
        assertThat(directory.isReady()).isTrue();
        assertThat(directory.getInvokers()).isEmpty();
        assertThat(fixture.protocol.referred.get()).isZero();
    }

    @Test
    void refresher_coalescesABurst_andAppliesOnlyTheLatestLists() {
        ManualRegistry registry = new ManualRegistry();
        Queue<Runnable> queued = new ArrayDeque<>();
        FakeTicker ticker = new FakeTicker();
        RegistryDirectory<DemoService> directory = RegistryDirectory
                .builder(DemoService.class, URL.valueOf(Fixture.CONSUMER), registry)
                .director(fixture.director).executor(queued::add).ticker(ticker).build();
        URL a = URL.valueOf("test://10.0.0.1:1/" + Fixture.SERVICE);
        URL b = URL.valueOf("test://10.0.0.2:2/" + Fixture.SERVICE);
        registry.notifyAll(List.of(a));
        registry.notifyAll(List.of(Categories.emptyMarker(URL.valueOf(Fixture.CONSUMER), Categories.CONFIGURATORS)));
        registry.notifyAll(List.of(Categories.emptyMarker(URL.valueOf(Fixture.CONSUMER), Categories.ROUTERS)));
        registry.notifyAll(List.of(a, b));
        registry.notifyAll(List.of(b));

        assertThat(queued).hasSize(1);
        queued.poll().run();
        assertThat(directory.getRefreshCount()).isEqualTo(1);
        assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.2:2");
        assertThat(fixture.protocol.referred.get()).isEqualTo(1);

        ticker.advance(Duration.ofSeconds(3));
        assertThat(directory.getTimeSinceLastRefresh()).contains(Duration.ofSeconds(3));
    }

    @Test
    void destroy_unsubscribes_destroysEveryInvoker_andRefusesCalls() {
        fixture.provider("10.0.0.1:1", "");
        fixture.provider("10.0.0.2:2", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        directory.destroy();
        fixture.provider("10.0.0.3:3", "");

        assertThat(fixture.protocol.referred.get()).isEqualTo(2);
        assertThat(fixture.protocol.destroyed()).isEqualTo(2);
        assertThatThrownBy(() -> directory.list(call("sayHello"))).isInstanceOf(RpcException.class);
        assertThat(directory.isAvailable()).isFalse();
    }

    @Test
    void consumerUrlForAnotherInterface_orBadEmptyProtection_isRefused() {
        assertThatThrownBy(() -> fixture.directory("consumer://10.0.0.9/com.example.Other"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("consumer URL interface: com.example.Other (expected: " + Fixture.SERVICE + ")");
        assertThatThrownBy(() -> fixture.directory(Fixture.CONSUMER + "&enable-empty-protection=yes"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("enable-empty-protection: yes (expected: true or false)");
    }

    @Test
    void registryHealth_isVisibleThroughTheDirectory() {
        RegistryDirectory<DemoService> directory = fixture.directory();
        assertThat(directory.getRegistryHealth()).get().extracting(RegistryHealth::getState)
                .isEqualTo(RegistryHealth.State.CONNECTED);
        fixture.registry.close();
        assertThat(directory.getRegistryHealth()).get().extracting(RegistryHealth::getState)
                .isEqualTo(RegistryHealth.State.CLOSED);
    }
}
