package dev.weft.rpc.registry;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded random sequences of override rules: after every step the directory equals a directory
 * built afresh from the same registry (the order of changes does not matter), and after removing
 * every rule again it equals the original.
 */
class OverrideRemovalPropertyTest {

    private static final int SEQUENCES = 150;
    private static final List<String> HOSTS = List.of("0.0.0.0", "0.0.0.0", "10.20.30.1", "10.9.9.9",
            "10.0.0.1:1", "10.0.0.2:2", "0.0.0.0:3", "10.0.0.3:4");
    private static final List<String> PAYLOADS = List.of("timeout=%d", "weight=%d", "retries=%d",
            "loadbalance=lb%d", "sayHello.mock=force:return x%d", "sayBye.timeout=%d", "disabled=%b", "weight=-%d",
            "priority=bad%d");

    @Test
    void addingThenRemovingAnySequenceOfRules_restoresTheOriginalState() {
        for (int seed = 0; seed < SEQUENCES; seed++) {
            runSequence(seed);
        }
    }

    private void runSequence(long seed) {
        Random random = new Random(seed);
        try (Fixture fixture = new Fixture()) {
            fixture.provider("10.0.0.1:1", "weight=100&timeout=10");
            fixture.provider("10.0.0.2:2", "weight=200");
            fixture.provider("10.0.0.3:3", "version=9");
            fixture.provider("10.0.0.4:3", "");
            RegistryDirectory<DemoService> directory = fixture.directory(Fixture.CONSUMER + "&timeout=20");
            Map<String, Object> original = snapshot(directory);
            List<Invoker<DemoService>> originalInvokers = protocolInvokers(directory);

            List<URL> added = new ArrayList<>();
            int count = 1 + random.nextInt(8);
            for (int i = 0; i < count; i++) {
                URL rule = randomRule(random);
                fixture.registry.register(rule);
                added.add(rule);
                assertSameAsFresh(fixture, directory, seed);
            }
            Collections.shuffle(added, random);
            for (URL rule : added) {
                fixture.registry.unregister(rule);
                assertSameAsFresh(fixture, directory, seed);
            }

            assertThat(snapshot(directory)).as("seed %s, rules %s", seed, added).isEqualTo(original);
            boolean anyDisable = added.stream().anyMatch(r -> r.hasParameter("disabled"));
            if (!anyDisable) {
                assertThat(protocolInvokers(directory)).as("seed %s", seed).containsExactlyElementsOf(originalInvokers);
            }
            directory.destroy();
        }
    }

    private static void assertSameAsFresh(Fixture fixture, RegistryDirectory<DemoService> directory, long seed) {
        RegistryDirectory<DemoService> fresh = fixture.directory(directory.getConsumerUrl().toFullString());
        try {
            assertThat(snapshot(directory)).as("seed %s", seed).isEqualTo(snapshot(fresh));
        } finally {
            fresh.destroy();
        }
    }

    private static URL randomRule(Random random) {
        String host = HOSTS.get(random.nextInt(HOSTS.size()));
        StringBuilder query = new StringBuilder("category=configurators&dynamic=false");
        int payloads = 1 + random.nextInt(2);
        for (int i = 0; i < payloads; i++) {
            String payload = PAYLOADS.get(random.nextInt(PAYLOADS.size()));
            query.append('&').append(payload.contains("%b")
                    ? String.format(java.util.Locale.ROOT, payload, random.nextBoolean())
                    : String.format(java.util.Locale.ROOT, payload, random.nextInt(50)));
        }
        if (random.nextInt(3) == 0) {
            query.append("&priority=").append(random.nextInt(3));
        }
        if (random.nextInt(5) == 0) {
            query.append("&application=").append(random.nextBoolean() ? "shop" : "billing");
        }
        if (random.nextInt(8) == 0) {
            query.append("&enabled=false");
        }
        if (random.nextInt(8) == 0) {
            query.append("&side=provider");
        }
        return URL.valueOf("override://" + host + "/" + Fixture.SERVICE + "?" + query);
    }

    /** The consumer URL and each listed provider's view URL, by address. */
    private static Map<String, Object> snapshot(RegistryDirectory<DemoService> directory) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("consumer", directory.getUrl());
        for (Invoker<DemoService> invoker : directory.getInvokers()) {
            state.put(invoker.getUrl().getAddress(), invoker.getUrl());
        }
        return state;
    }

    private static List<Invoker<DemoService>> protocolInvokers(RegistryDirectory<DemoService> directory) {
        return directory.getInvokers().stream()
                .map(i -> ((ProviderView<DemoService>) i).underlying()).toList();
    }
}
