package dev.weft.rpc.registry;

import dev.weft.rpc.protocol.ServiceKey;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.LIST;

class RegistryCacheFileTest {

    @TempDir
    Path dir;

    @Test
    void consumerStartsFromTheFile_whileTheRegistryDeliversNothing_thenFollowsTheRegistry() throws Exception {
        Path file = dir.resolve("registry.cache");
        try (Fixture fixture = new Fixture()) {
            try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
                fixture.provider("10.0.0.1:1", "");
                fixture.provider("10.0.0.2:2", "");
                fixture.override("10.0.0.2:2", "weight=7");
                RegistryDirectory.builder(DemoService.class, URL.valueOf(Fixture.CONSUMER), fixture.registry)
                        .director(fixture.director).cacheFile(cache).build();
            }
            assertThat(Files.readString(file, StandardCharsets.UTF_8)).contains("providers " + Fixture.SERVICE + " test://10.0.0.1:1/");

            ManualRegistry unreachable = new ManualRegistry();
            unreachable.available = false;
            try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
                RegistryDirectory<DemoService> directory = RegistryDirectory
                        .builder(DemoService.class, URL.valueOf(Fixture.CONSUMER), unreachable)
                        .director(fixture.director).cacheFile(cache).build();
                assertThat(directory.isReady()).isTrue();
                assertThat(Fixture.providerValues(directory, "weight"))
                        .isEqualTo(Map.of("10.0.0.1:1", "null", "10.0.0.2:2", "7"));

                unreachable.notifyAll(List.of(URL.valueOf("test://10.0.0.3:3/" + Fixture.SERVICE)));
                assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.3:3");
                directory.destroy();
            }
        }
    }

    @Test
    void reachableRegistry_thatHasNotDeliveredYet_isWaitedFor_theFileIsNotUsed() throws Exception {
        Path file = dir.resolve("stale.cache");
        Files.writeString(file, String.join("\n",
                "providers " + Fixture.SERVICE + " test://10.0.0.1:1/" + Fixture.SERVICE,
                "configurators " + Fixture.SERVICE + " override://0.0.0.0/" + Fixture.SERVICE
                        + "?category=configurators&sayHello.mock=force:return+stale",
                ""), StandardCharsets.UTF_8);
        try (Fixture fixture = new Fixture(); RegistryCacheFile cache = new RegistryCacheFile(file)) {
            ManualRegistry connected = new ManualRegistry();
            RegistryDirectory<DemoService> directory = RegistryDirectory
                    .builder(DemoService.class, URL.valueOf(Fixture.CONSUMER), connected)
                    .director(fixture.director).cacheFile(cache).build();
            assertThat(directory.isReady()).isFalse();
            assertThat(directory.getInvokers()).isEmpty();
            assertThat(directory.getUrl().hasParameter("sayHello.mock")).isFalse();
            assertThat(fixture.protocol.referred.get()).as("stale providers referred").isZero();

            connected.notifyAll(List.of(URL.valueOf("test://10.0.0.3:3/" + Fixture.SERVICE)));
            connected.notifyAll(List.of(URL.valueOf("empty://10.20.30.1/" + Fixture.SERVICE + "?category=configurators")));
            connected.notifyAll(List.of(URL.valueOf("empty://10.20.30.1/" + Fixture.SERVICE + "?category=routers")));
            assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.3:3");
            assertThat(directory.getUrl().hasParameter("sayHello.mock")).isFalse();
            directory.destroy();
        }
    }

    @Test
    void badLines_areSkipped_theOthersLoaded() throws Exception {
        Path file = dir.resolve("bad.cache");
        Files.writeString(file, String.join("\n",
                "# comment",
                "providers " + Fixture.SERVICE + " test://10.0.0.1:1/" + Fixture.SERVICE,
                "garbage",
                "providers " + Fixture.SERVICE + " test://10.0.0.2:99999/x",
                "configurators " + Fixture.SERVICE,
                ""), StandardCharsets.UTF_8);
        try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
            ServiceKey key = ServiceKey.of(URL.valueOf(Fixture.CONSUMER));
            assertThat(cache.load(key, Categories.PROVIDERS)).get(LIST)
                    .containsExactly(URL.valueOf("test://10.0.0.1:1/" + Fixture.SERVICE));
            assertThat(cache.load(key, Categories.CONFIGURATORS)).get(LIST).isEmpty();
            assertThat(cache.load(ServiceKey.of(URL.valueOf("consumer://h/other")), Categories.PROVIDERS)).isEmpty();
        }
    }

    @Test
    void forRegistry_readsTheFileKey() {
        assertThat(RegistryCacheFile.forRegistry(URL.valueOf("zookeeper://127.0.0.1:2181"))).isEmpty();
        Path file = dir.resolve("k.cache");
        try (RegistryCacheFile cache = RegistryCacheFile.forRegistry(
                URL.valueOf("zookeeper://127.0.0.1:2181?file=" + file)).orElseThrow()) {
            assertThat(cache.getPath()).isEqualTo(file.toAbsolutePath());
        }
    }
}
