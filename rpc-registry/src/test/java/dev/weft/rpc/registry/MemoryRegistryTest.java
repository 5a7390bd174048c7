package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemoryRegistryTest {

    private static final String SERVICE = "com.example.DemoService";
    private static final URL SUBSCRIBER = URL.valueOf("consumer://10.0.0.9/" + SERVICE + "?category=providers,configurators");

    private static URL provider(int port) {
        return URL.valueOf("weft://10.0.0.1:" + port + "/" + SERVICE);
    }

    @Test
    void subscribe_deliversEachCategoryNow_anEmptyOneAsAnEmptyMarker() {
        MemoryRegistry registry = new MemoryRegistry(URL.valueOf("memory://a"));
        registry.register(provider(1));
        List<List<URL>> received = new ArrayList<>();
        registry.subscribe(SUBSCRIBER, received::add);

        assertThat(received).hasSize(2);
        assertThat(received.get(0)).containsExactly(provider(1));
        assertThat(received.get(1)).singleElement().satisfies(u -> {
            assertThat(u.getProtocol()).isEqualTo("empty");
            assertThat(u.getParameter("category")).isEqualTo("configurators");
        });
    }

    @Test
    void listenerThatThrows_doesNotKeepTheChangeFromTheOthers_norFailTheWriter() {
        MemoryRegistry registry = new MemoryRegistry(URL.valueOf("memory://a"));
        List<List<URL>> received = new ArrayList<>();
        List<Integer> failing = new ArrayList<>();
        registry.subscribe(URL.valueOf("consumer://10.0.0.8/" + SERVICE), urls -> {
            failing.add(urls.size());
            if (failing.size() > 1) {
                throw new IllegalStateException("listener bug");
            }
        });
        registry.subscribe(URL.valueOf("consumer://10.0.0.9/" + SERVICE), received::add);

        registry.register(provider(1));
        registry.register(provider(2));
        registry.unregister(provider(1));

        assertThat(failing).as("the failing listener is still called").containsExactly(1, 1, 2, 1);
        assertThat(received).containsExactly(List.of(Categories.emptyMarker(
                URL.valueOf("consumer://10.0.0.9/" + SERVICE), Categories.PROVIDERS)),
                List.of(provider(1)), List.of(provider(1), provider(2)), List.of(provider(2)));
        assertThat(registry.lookup(URL.valueOf("consumer://10.0.0.9/" + SERVICE))).containsExactly(provider(2));
    }

    @Test
    void changes_deliverTheFullListOfTheChangedCategoryOnly() {
        MemoryRegistry registry = new MemoryRegistry(URL.valueOf("memory://a"));
        List<List<URL>> received = new ArrayList<>();
        registry.subscribe(SUBSCRIBER, received::add);
        received.clear();

        registry.register(provider(1));
        registry.register(provider(2));
        registry.register(URL.valueOf("weft://10.0.0.1:3/com.example.Other"));
        registry.unregister(provider(1));

        assertThat(received).containsExactly(List.of(provider(1)), List.of(provider(1), provider(2)), List.of(provider(2)));
    }

    @Test
    void unsubscribe_stopsNotifications() {
        MemoryRegistry registry = new MemoryRegistry(URL.valueOf("memory://a"));
        List<List<URL>> received = new ArrayList<>();
        NotifyListener listener = received::add;
        registry.subscribe(SUBSCRIBER, listener);
        registry.unsubscribe(SUBSCRIBER, listener);
        received.clear();
        registry.register(provider(1));

        assertThat(received).isEmpty();
    }

    @Test
    void close_unregistersDynamicUrlsOnly_andRefusesNewWork() {
        ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader());
        try (director) {
            RegistryFactory factory = director.getExtensionLoader(RegistryFactory.class).getExtension("memory");
            Registry writer = factory.getRegistry(URL.valueOf("memory://shared"));
            Registry reader = factory.getRegistry(URL.valueOf("memory://shared"));
            Registry elsewhere = factory.getRegistry(URL.valueOf("memory://other"));
            URL rule = URL.valueOf("override://0.0.0.0/" + SERVICE + "?category=configurators&dynamic=false&timeout=1");
            writer.register(provider(1));
            writer.register(rule);
            assertThat(reader.lookup(SUBSCRIBER)).containsExactly(provider(1), rule);
            assertThat(elsewhere.lookup(SUBSCRIBER)).isEmpty();

            writer.close();
            assertThat(reader.lookup(SUBSCRIBER)).containsExactly(rule);
            assertThat(writer.isAvailable()).isFalse();
            assertThatThrownBy(() -> writer.register(provider(2))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("memory://shared");
        }
    }

    @Test
    void adaptiveFactory_picksTheMemoryRegistryByScheme() {
        try (ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader())) {
            Registry registry = director.getExtensionLoader(RegistryFactory.class).getAdaptiveExtension()
                    .getRegistry(URL.valueOf("memory://x"));
            assertThat(registry).isInstanceOf(MemoryRegistry.class);
        }
    }

    @Test
    void urlWithoutService_isRefused() {
        MemoryRegistry registry = new MemoryRegistry(URL.valueOf("memory://a"));
        assertThatThrownBy(() -> registry.register(URL.valueOf("weft://10.0.0.1:1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("registry URL interface: none (expected:");
    }
}
