package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Categories, lookups, subscriptions and closing of the memory registry, as a subscriber sees them. */
class MemoryRegistryCategoriesTest {

    private static final String SERVICE = "com.example.DemoService";
    private static final URL PROVIDER = URL.valueOf("weft://10.0.0.1:1/" + SERVICE);
    private static final URL CONSUMER = URL.valueOf("consumer://10.0.0.9/" + SERVICE + "?category=consumers");
    private static final URL RULE = URL.valueOf("override://0.0.0.0/" + SERVICE + "?timeout=1");
    private static final URL ROUTE = URL.valueOf("condition://0.0.0.0/" + SERVICE + "?category=routers");

    private static URL query(String categories) {
        return URL.valueOf("consumer://10.0.0.9/" + SERVICE + (categories == null ? "" : "?category=" + categories));
    }

    private static MemoryRegistry registryWithOneOfEach() {
        MemoryRegistry registry = new MemoryRegistry(URL.valueOf("memory://a"));
        registry.register(PROVIDER);
        registry.register(CONSUMER);
        registry.register(RULE);
        registry.register(ROUTE);
        return registry;
    }

    @Test
    void category_isTheKey_overrideAndAbsentRulesAreConfigurators_defaultProviders() {
        assertThat(Categories.of(PROVIDER)).isEqualTo(Categories.PROVIDERS);
        assertThat(Categories.of(CONSUMER)).isEqualTo(Categories.CONSUMERS);
        assertThat(Categories.of(RULE)).isEqualTo(Categories.CONFIGURATORS);
        assertThat(Categories.of(URL.valueOf("absent://0.0.0.0/" + SERVICE + "?category=providers")))
                .isEqualTo(Categories.CONFIGURATORS);
        assertThat(Categories.of(ROUTE)).isEqualTo(Categories.ROUTERS);
    }

    @Test
    void emptyMarker_isTheSubscribedUrlAsEmpty_withItsCategory() {
        URL marker = Categories.emptyMarker(query("providers,configurators"), Categories.CONFIGURATORS);

        assertThat(marker.getProtocol()).isEqualTo(Categories.EMPTY_PROTOCOL);
        assertThat(marker.getParameter(Categories.CATEGORY_KEY)).isEqualTo(Categories.CONFIGURATORS);
        assertThat(marker.getAddress()).isEqualTo("10.0.0.9");
        assertThat(marker.getPath()).isEqualTo(SERVICE);
        assertThat(Categories.isEmptyMarker(marker)).isTrue();
        assertThat(Categories.isEmptyMarker(PROVIDER)).isFalse();
    }

    @Test
    void lookup_readsTheCategoriesNamed_defaultProviders_starForAll() {
        MemoryRegistry registry = registryWithOneOfEach();

        assertThat(registry.lookup(query(null))).containsExactly(PROVIDER);
        assertThat(registry.lookup(query("configurators"))).containsExactly(RULE);
        assertThat(registry.lookup(query(" consumers , ,routers"))).containsExactly(CONSUMER, ROUTE);
        assertThat(registry.lookup(query("*"))).containsExactly(PROVIDER, CONSUMER, RULE, ROUTE);
        assertThat(registry.lookup(URL.valueOf("consumer://10.0.0.9/com.example.Other?category=*"))).isEmpty();
    }

    @Test
    void unknownCategory_isRefused_atRegisterSubscribeAndLookup_namingTheKnownOnes() {
        MemoryRegistry registry = registryWithOneOfEach();
        String known = "(expected: one of [providers, consumers, configurators, routers]";

        URL typo = query("providers,configurator");
        assertThatThrownBy(() -> registry.subscribe(typo, urls -> { }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("category: configurator " + known + ", or * for all) in " + typo);
        assertThatThrownBy(() -> registry.lookup(typo))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("category: configurator " + known + ", or * for all) in " + typo);
        URL none = query(" , ");
        assertThatThrownBy(() -> registry.lookup(none))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("category:  , (expected: one or more of [providers, consumers, configurators, routers],"
                        + " or * for all) in " + none);
        URL provider = URL.valueOf("weft://10.0.0.2:2/" + SERVICE + "?category=provider");
        assertThatThrownBy(() -> registry.register(provider))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("category: provider " + known + ") in " + provider);
        assertThat(registry.lookup(query("*"))).containsExactly(PROVIDER, CONSUMER, RULE, ROUTE);
    }

    @Test
    void subscribeToAll_getsEveryCategoryNow_thenOnlyChangesOfItsService() {
        MemoryRegistry registry = registryWithOneOfEach();
        List<List<URL>> received = new ArrayList<>();
        registry.subscribe(query("*"), received::add);

        assertThat(received).containsExactly(List.of(PROVIDER), List.of(CONSUMER), List.of(RULE), List.of(ROUTE));
        received.clear();

        registry.register(URL.valueOf("weft://10.0.0.1:1/com.example.Other"));
        registry.unregister(URL.valueOf("weft://10.0.0.7:7/" + SERVICE));
        registry.register(PROVIDER);
        assertThat(received).isEmpty();

        registry.unregister(RULE);
        assertThat(received).singleElement().satisfies(urls -> assertThat(urls).singleElement()
                .satisfies(u -> assertThat(Categories.isEmptyMarker(u)).isTrue()));
    }

    @Test
    void lastUrlOfACategoryRemoved_thenAddedAgain_isDeliveredAgain() {
        MemoryRegistry registry = new MemoryRegistry(URL.valueOf("memory://a"));
        List<List<URL>> received = new ArrayList<>();
        registry.subscribe(query(null), received::add);
        registry.register(PROVIDER);
        registry.unregister(PROVIDER);
        registry.register(PROVIDER);

        assertThat(received).hasSize(4);
        assertThat(received.get(3)).containsExactly(PROVIDER);
        assertThat(registry.lookup(query(null))).containsExactly(PROVIDER);
    }

    @Test
    void unsubscribe_stopsOnlyThatListenerOnThatUrl() {
        MemoryRegistry registry = new MemoryRegistry(URL.valueOf("memory://a"));
        List<List<URL>> first = new ArrayList<>();
        List<List<URL>> second = new ArrayList<>();
        NotifyListener firstListener = first::add;
        NotifyListener secondListener = second::add;
        registry.subscribe(query(null), firstListener);
        registry.subscribe(query(null), secondListener);
        registry.unsubscribe(query(null), firstListener);
        registry.unsubscribe(query("configurators"), secondListener);
        first.clear();
        second.clear();

        registry.register(PROVIDER);
        assertThat(first).isEmpty();
        assertThat(second).containsExactly(List.of(PROVIDER));
    }

    @Test
    void close_isIdempotent_dropsSubscriptions_andReportsClosed() {
        MemoryRegistry registry = new MemoryRegistry(URL.valueOf("memory://a"));
        List<List<URL>> received = new ArrayList<>();
        registry.subscribe(query(null), received::add);
        assertThat(registry.getState()).isEqualTo(RegistryHealth.State.CONNECTED);
        assertThat(registry.isAvailable()).isTrue();
        assertThat(registry.getTimeSinceLastRead()).contains(Duration.ZERO);

        registry.destroy();
        registry.close();
        assertThat(registry.getState()).isEqualTo(RegistryHealth.State.CLOSED);
        assertThat(registry.isAvailable()).isFalse();
        assertThatThrownBy(() -> registry.subscribe(query(null), received::add))
                .isInstanceOf(IllegalStateException.class).hasMessage("Registry memory://a is closed");
        assertThat(registry.getUrl()).isEqualTo(URL.valueOf("memory://a"));
        assertThat(registry).hasToString("MemoryRegistry[memory://a]");
    }

    @Test
    void closingOneHandle_keepsTheOtherHandlesSubscriptionsAndUrls() {
        MemoryRegistry.Store store = new MemoryRegistry.Store();
        MemoryRegistry first = new MemoryRegistry(URL.valueOf("memory://a"), store);
        MemoryRegistry second = new MemoryRegistry(URL.valueOf("memory://a"), store);
        List<List<URL>> received = new ArrayList<>();
        second.subscribe(query(null), received::add);
        second.register(PROVIDER);
        first.register(URL.valueOf("weft://10.0.0.2:2/" + SERVICE));
        List<List<URL>> receivedByClosed = new ArrayList<>();
        first.subscribe(query(null), receivedByClosed::add);
        received.clear();

        first.close();
        assertThat(received).containsExactly(List.of(PROVIDER));
        assertThat(second.lookup(query(null))).containsExactly(PROVIDER);
        receivedByClosed.clear();
        second.register(URL.valueOf("weft://10.0.0.3:3/" + SERVICE));
        assertThat(receivedByClosed).isEmpty();
    }

    @Test
    void aRefusedRegistration_isNotKept_soClosingStillUnregistersTheHandlesOtherUrls() {
        MemoryRegistry.Store store = new MemoryRegistry.Store();
        MemoryRegistry first = new MemoryRegistry(URL.valueOf("memory://a"), store);
        MemoryRegistry second = new MemoryRegistry(URL.valueOf("memory://a"), store);
        first.register(PROVIDER);
        URL noInterface = URL.valueOf("weft://10.0.0.2:2");
        assertThatThrownBy(() -> first.register(noInterface)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("registry URL interface: none (expected: a path or an interface parameter naming the"
                        + " service) in " + noInterface);

        first.close();
        assertThat(first.getState()).isEqualTo(RegistryHealth.State.CLOSED);
        assertThat(second.lookup(query("*"))).isEmpty();
    }

    @Test
    void unsubscribingOneListener_thenClosing_stopsTheOthersOfThatHandleToo() {
        MemoryRegistry.Store store = new MemoryRegistry.Store();
        MemoryRegistry handle = new MemoryRegistry(URL.valueOf("memory://a"), store);
        MemoryRegistry other = new MemoryRegistry(URL.valueOf("memory://a"), store);
        List<List<URL>> kept = new ArrayList<>();
        NotifyListener dropped = urls -> { };
        handle.subscribe(query(null), dropped);
        handle.subscribe(query(null), kept::add);
        handle.unsubscribe(query(null), dropped);
        handle.close();
        kept.clear();

        other.register(PROVIDER);
        assertThat(kept).isEmpty();
    }

    @Test
    void destroy_closesTheHandle_unregisteringItsUrls() {
        MemoryRegistry.Store store = new MemoryRegistry.Store();
        MemoryRegistry handle = new MemoryRegistry(URL.valueOf("memory://a"), store);
        MemoryRegistry other = new MemoryRegistry(URL.valueOf("memory://a"), store);
        handle.register(PROVIDER);

        handle.destroy();
        assertThat(handle.getState()).isEqualTo(RegistryHealth.State.CLOSED);
        assertThat(other.lookup(query(null))).isEmpty();
    }

    @Test
    void factory_givesOneStorePerHostPortAndPath() {
        MemoryRegistryFactory factory = new MemoryRegistryFactory();
        Registry a = factory.getRegistry(URL.valueOf("memory://host:1/x"));
        a.register(PROVIDER);

        assertThat(factory.getRegistry(URL.valueOf("memory://host:1/x?other=1")).lookup(query(null)))
                .containsExactly(PROVIDER);
        assertThat(factory.getRegistry(URL.valueOf("memory://host:1/y")).lookup(query(null))).isEmpty();
        assertThat(factory.getRegistry(URL.valueOf("memory://host:2/x")).lookup(query(null))).isEmpty();
        assertThat(factory.getRegistry(URL.valueOf("memory://host:1")).lookup(query(null))).isEmpty();
    }
}
