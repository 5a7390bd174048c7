package dev.weft.rpc.spi;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.fixtures.Codec;
import dev.weft.rpc.spi.fixtures.Formatter;
import dev.weft.rpc.spi.fixtures.Greeter;
import dev.weft.rpc.spi.fixtures.NoAdaptiveMethods;
import dev.weft.rpc.spi.fixtures.Plugin;
import dev.weft.rpc.spi.fixtures.Plugins;
import dev.weft.rpc.spi.internal.AdaptiveMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Activate, injection, cycles, lifecycle, isolation, laziness and adaptive edge cases. */
class ExtensionLifecycleTest {

    private final ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader());
    private final ExtensionLoader<Plugin> plugins = director.getExtensionLoader(Plugin.class);

    @AfterEach
    void close() {
        director.close();
    }

    private List<String> activated(String url, String group) {
        return plugins.getActivateExtensions(URL.valueOf(url), "plugins", group).stream().map(Plugin::id).toList();
    }

    @Test
    void activate_filtersByGroupAndKeys_sortedByOrderThenName() {
        assertThat(activated("t://h", "provider")).containsExactly("always");
        assertThat(activated("t://h", "consumer")).containsExactly("consumer", "always");
        assertThat(activated("t://h?cache=lru", "consumer")).containsExactly("cache", "consumer", "always");
        assertThat(activated("t://h?sayHello.cache=lru", "provider")).containsExactly("cache", "always");
        assertThat(activated("t://h?cache=", "provider")).containsExactly("always");
    }

    @Test
    void activate_urlListAddsRemovesAndPlacesDefaults() {
        assertThat(activated("t://h?plugins=manual", "consumer")).containsExactly("consumer", "always", "manual");
        assertThat(activated("t://h?plugins=manual,default", "consumer")).containsExactly("manual", "consumer", "always");
        assertThat(activated("t://h?plugins=-always", "consumer")).containsExactly("consumer");
        assertThat(activated("t://h?plugins=manual,-default", "consumer")).containsExactly("manual");
        assertThat(activated("t://h?plugins=always", "provider")).containsExactly("always");
        assertThatThrownBy(() -> activated("t://h?plugins=manul", "consumer"))
                .hasMessageContaining("No extension 'manul'").hasMessageContaining("did you mean 'manual'?");
    }

    @Test
    void activate_urlListRemovingAnUnknownName_failsNamingItAndTheAvailableOnes() {
        assertThatThrownBy(() -> activated("t://h?plugins=-alwyas", "consumer"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No extension 'alwyas'")
                .hasMessageContaining("did you mean 'always'?")
                .hasMessageContaining("plugins=-alwyas");
        assertThatThrownBy(() -> activated("t://h?plugins=manual,-", "consumer"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("plugins: manual,- (expected: names separated by ',', each optionally after '-'");
    }

    @Test
    void activate_unknownNameInTheUrlList_failsBeforeAnyExtensionIsCreated() {
        Plugins.CLOSED.clear();
        ExtensionDirector own = new ExtensionDirector(getClass().getClassLoader());
        assertThatThrownBy(() -> own.getExtensionLoader(Plugin.class)
                .getActivateExtensions(URL.valueOf("t://h?plugins=manul"), "plugins", "consumer"))
                .hasMessageContaining("No extension 'manul'");
        own.close();
        assertThat(Plugins.CLOSED).isEmpty();
    }

    @Test
    void injection_setsAdaptiveExtensionsAndDirector_butHonoursDisableInject() {
        Plugins.Injected injected = (Plugins.Injected) plugins.getExtension("injected");
        assertThat(injected.greeter).isSameAs(director.getExtensionLoader(Greeter.class).getAdaptiveExtension());
        assertThat(injected.notInjected).isNull();
        assertThat(injected.director).isSameAs(director);
        assertThat(injected.greeter.greet(URL.valueOf("t://h?greeter=hola"), "ann")).isEqualTo("(hola ann)");
    }

    @Test
    void injection_failure_isAnErrorNamingTheSetter() {
        assertThatThrownBy(() -> plugins.getExtension("broken"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Extension 'broken' of dev.weft.rpc.spi.fixtures.Plugin")
                .hasMessageContaining("BrokenSetter.setGreeter: the setter threw java.lang.IllegalArgumentException: no greeters here");
    }

    @Test
    void cycle_isReportedWithItsChain_notAStackOverflow() {
        assertThatThrownBy(() -> plugins.getExtension("cycle-a"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Extension cycle: dev.weft.rpc.spi.fixtures.Plugin:cycle-a -> "
                        + "dev.weft.rpc.spi.fixtures.Plugin:cycle-a (raw) -> dev.weft.rpc.spi.fixtures.Plugin:cycle-b -> "
                        + "dev.weft.rpc.spi.fixtures.Plugin:cycle-b (raw) -> dev.weft.rpc.spi.fixtures.Plugin:cycle-a");
        // the loader is still usable afterwards
        assertThat(plugins.getExtension("manual").id()).isEqualTo("manual");
    }

    @Test
    void close_closesAutoCloseablesOnceNewestFirst_andRefusesNewWork() {
        Plugins.CLOSED.clear();
        ExtensionDirector own = new ExtensionDirector(getClass().getClassLoader());
        ExtensionLoader<Plugin> loader = own.getExtensionLoader(Plugin.class);
        loader.getExtension("consumer");
        loader.getExtension("always");
        loader.getExtension("always", false);
        loader.getExtension("manual");
        own.close();
        own.close();
        assertThat(Plugins.CLOSED).containsExactly("always", "consumer");
        assertThatThrownBy(() -> loader.getExtension("manual")).hasMessageContaining("ExtensionDirector: closed");
    }

    @Test
    void servicesFiles_areReadToo_withDerivedNames() {
        assertThat(plugins.getSupportedExtensions()).contains("services");
        assertThat(plugins.getExtension("services").id()).isEqualTo("services");
    }

    @Test
    void getExtensionClass_givesTheBoundClass_withoutInitialisingIt_andNamesTheAvailableOnesForAnUnknownName() {
        ExtensionDirector own = new ExtensionDirector(getClass().getClassLoader());
        ExtensionLoader<Plugin> loader = own.getExtensionLoader(Plugin.class);
        assertThat(loader.getExtensionClass("manual")).isEqualTo(Plugins.Manual.class);
        assertThatThrownBy(() -> loader.getExtensionClass("manul"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No extension 'manul'").hasMessageContaining("did you mean 'manual'?");
        assertThatThrownBy(() -> loader.getExtensionClass(null)).hasMessageContaining("No extension 'null'");
        own.close();
    }

    @Test
    void discovery_doesNotInitialiseClasses_untilTheExtensionIsCreated() {
        assertThat(plugins.getSupportedExtensions()).contains("lazy");
        assertThat(plugins.getExtensionClass("lazy")).isEqualTo(Plugins.Lazy.class);
        assertThat(Plugins.lazyInitialised).isFalse();
        plugins.getExtension("lazy");
        assertThat(Plugins.lazyInitialised).isTrue();
    }

    @Test
    void directors_withDifferentClassLoaders_seeDifferentExtensions(@TempDir Path extra) throws Exception {
        Path descriptor = extra.resolve("META-INF/rpc/" + Plugin.class.getName());
        Files.createDirectories(descriptor.getParent());
        Files.writeString(descriptor, "extra=" + Plugins.Manual.class.getName() + "\n");
        try (URLClassLoader child = new URLClassLoader(new java.net.URL[] {extra.toUri().toURL()}, getClass().getClassLoader());
             ExtensionDirector isolated = new ExtensionDirector(child)) {
            assertThat(isolated.getExtensionLoader(Plugin.class).getSupportedExtensions()).contains("extra", "manual");
            assertThat(plugins.getSupportedExtensions()).doesNotContain("extra");
            assertThat(isolated.getExtensionLoader(Plugin.class).getExtension("manual"))
                    .isNotSameAs(plugins.getExtension("manual"));
        }
    }

    @Test
    void classWhoseStaticInitialiserFails_isListedWithoutRunningIt_andEveryRequestNamesTheCause(@TempDir Path extra)
            throws Exception {
        Path descriptor = extra.resolve("META-INF/rpc/" + Plugin.class.getName());
        Files.createDirectories(descriptor.getParent());
        Files.writeString(descriptor, "failing=" + Plugins.FailingInitialiser.class.getName() + "\nother="
                + Plugins.Manual.class.getName() + "\n");
        try (URLClassLoader child = new URLClassLoader(new java.net.URL[] {extra.toUri().toURL()}, getClass().getClassLoader());
             ExtensionDirector isolated = new ExtensionDirector(child)) {
            ExtensionLoader<Plugin> loader = isolated.getExtensionLoader(Plugin.class);
            assertThat(loader.getSupportedExtensions()).contains("failing", "other");
            assertThat(loader.getActivateExtensions(URL.valueOf("t://h"), "plugins", "provider")).extracting(Plugin::id)
                    .containsExactly("always");
            assertThat(Plugins.FAILING_INITIALISATIONS).hasValue(0);
            for (int request = 0; request < 2; request++) {
                assertThatThrownBy(() -> loader.getExtension("failing"))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("Extension 'failing' of " + Plugin.class.getName())
                        .hasMessageContaining("java.lang.IllegalStateException: missing plugin.properties");
            }
            assertThat(Plugins.FAILING_INITIALISATIONS).hasValue(1);
            assertThat(loader.getExtension("other").id()).isEqualTo("manual");
        }
    }

    @Test
    void missingOptionalDependency_failsOnlyItsOwnLine(@TempDir Path extra) throws Exception {
        Path descriptor = extra.resolve("META-INF/rpc/" + Plugin.class.getName());
        Files.createDirectories(descriptor.getParent());
        Files.writeString(descriptor, "optional=com.example.NeedsOptionalDependency\nother=" + Plugins.Manual.class.getName() + "\n");
        ClassLoader parent = getClass().getClassLoader();
        try (URLClassLoader child = new URLClassLoader(new java.net.URL[] {extra.toUri().toURL()}, parent) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                if (name.equals("com.example.NeedsOptionalDependency")) {
                    throw new NoClassDefFoundError("org/optional/Dependency");
                }
                return super.findClass(name);
            }
        }; ExtensionDirector isolated = new ExtensionDirector(child)) {
            ExtensionLoader<Plugin> loader = isolated.getExtensionLoader(Plugin.class);
            assertThat(loader.getExtension("other").id()).isEqualTo("manual");
            assertThatThrownBy(() -> loader.getExtension("optional"))
                    .hasMessageContaining("No extension 'optional'")
                    .hasMessageContaining(Plugin.class.getName() + ":1: class: com.example.NeedsOptionalDependency")
                    .hasMessageContaining("java.lang.NoClassDefFoundError: org/optional/Dependency");
        }
    }

    @Test
    void defaultExtension_whenNoneDeclared_isAClearError() {
        assertThat(plugins.getDefaultExtensionName()).isNull();
        assertThatThrownBy(plugins::getDefaultExtension).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Default extension of dev.weft.rpc.spi.fixtures.Plugin: none (expected: @SPI(\"name\")");
    }

    @Test
    void adaptive_handWrittenClass_isUsedAsIs() {
        Formatter adaptive = director.getExtensionLoader(Formatter.class).getAdaptiveExtension();
        assertThat(adaptive).isInstanceOf(Formatter.ManualAdaptiveFormatter.class);
        assertThat(adaptive.format(URL.valueOf("t://h"), "x")).isEqualTo("manual:x");
        assertThat(director.getExtensionLoader(Formatter.class).getSupportedExtensions()).containsExactly("upper");
    }

    @Test
    void adaptive_keysThatLookLikeCode_areOnlyData() {
        Codec adaptive = director.getExtensionLoader(Codec.class).getAdaptiveExtension();
        assertThat(adaptive.encode(URL.valueOf("t://h"), "v")).isEqualTo("plain:v");
        assertThat(adaptive.encode(URL.valueOf("t://h?codec=plain"), "v")).isEqualTo("plain:v");
        URL hostile = URL.valueOf("t://h").addParameter("\"; System.exit(1); \"", "nope");
        assertThatThrownBy(() -> adaptive.encode(hostile, "v")).hasMessageContaining("No extension 'nope'");
    }

    @Test
    void adaptive_withoutAdaptiveMethodsOrUrl_isAClearError() {
        ExtensionLoader<NoAdaptiveMethods> none = director.getExtensionLoader(NoAdaptiveMethods.class);
        assertThatThrownBy(none::getAdaptiveExtension).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Adaptive extension of dev.weft.rpc.spi.fixtures.NoAdaptiveMethods: none");
        ExtensionLoader<NoAdaptiveMethods.NoUrl> noUrl = director.getExtensionLoader(NoAdaptiveMethods.NoUrl.class);
        assertThatThrownBy(noUrl::getAdaptiveExtension).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("@Adaptive method: dev.weft.rpc.spi.fixtures.NoAdaptiveMethods$NoUrl.run (expected: a parameter of type dev.weft.rpc.common.URL");
        assertThat(noUrl.getProblems()).hasSize(1);
    }

    @Test
    void defaultKey_splitsAtCaseChanges() {
        assertThat(AdaptiveMethod.defaultKey(LoadBalanceLike.class)).isEqualTo("load.balance.like");
        assertThat(AdaptiveMethod.defaultKey(HTTPServer.class)).isEqualTo("http.server");
        assertThat(AdaptiveMethod.defaultKey(SimpleExt.class)).isEqualTo("simple.ext");
    }

    interface LoadBalanceLike {
    }

    interface HTTPServer {
    }

    interface SimpleExt {
    }
}
