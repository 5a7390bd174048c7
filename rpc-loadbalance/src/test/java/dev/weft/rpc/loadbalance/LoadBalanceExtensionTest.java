package dev.weft.rpc.loadbalance;

import dev.weft.rpc.testing.FakeService;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.weft.rpc.loadbalance.Fixtures.CONSUMER;
import static dev.weft.rpc.loadbalance.Fixtures.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The descriptor and the adaptive {@code loadbalance=} selection through the extension loader. */
class LoadBalanceExtensionTest {

    private final ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader());
    private final ExtensionLoader<LoadBalance> loader = director.getExtensionLoader(LoadBalance.class);

    @AfterEach
    void close() {
        director.close();
    }

    @Test
    void descriptor_everyNameResolves_toItsBalancer() {
        Map<String, Class<?>> expected = Map.of(
                "random", RandomLoadBalance.class,
                "roundrobin", RoundRobinLoadBalance.class,
                "leastactive", LeastActiveLoadBalance.class,
                "shortestresponse", ShortestResponseLoadBalance.class,
                "consistenthash", ConsistentHashLoadBalance.class,
                "p2c", P2cLoadBalance.class);
        assertThat(loader.getSupportedExtensions()).containsExactly(
                "consistenthash", "leastactive", "p2c", "random", "roundrobin", "shortestresponse");
        expected.forEach((name, type) -> {
            assertThat(loader.getExtension(name)).isExactlyInstanceOf(type);
            assertThat(loader.getExtension(name)).isSameAs(loader.getExtension(name));
        });
        assertThat(loader.getDefaultExtensionName()).isEqualTo("random");
        assertThat(loader.getDefaultExtension()).isInstanceOf(RandomLoadBalance.class);
    }

    @Test
    void adaptive_picksByLoadbalanceKey_methodLevelFirst() {
        LoadBalance adaptive = loader.getAdaptiveExtension();
        List<Invoker<FakeService>> invokers = Fixtures.weighted(5, 1, 1);
        URL url = CONSUMER.addParameter("loadbalance", "random").addParameter("sayHello.loadbalance", "roundrobin");
        List<Invoker<FakeService>> picked = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            picked.add(adaptive.select(invokers, url, call("sayHello")));
        }
        // only round robin gives this exact sequence
        assertThat(Fixtures.names(picked)).isEqualTo("a a b a c a a");

        URL hashed = CONSUMER.addParameter("loadbalance", "consistenthash");
        Invoker<FakeService> owner = adaptive.select(invokers, hashed, call("find", "user-1"));
        for (int i = 0; i < 50; i++) {
            assertThat(adaptive.select(invokers, hashed, call("find", "user-1"))).isSameAs(owner);
        }
    }

    @Test
    void adaptive_unknownName_failsWithTheAvailableNames() {
        LoadBalance adaptive = loader.getAdaptiveExtension();
        URL url = CONSUMER.addParameter("loadbalance", "randon");
        assertThatThrownBy(() -> adaptive.select(Fixtures.plain(2), url, call("m")))
                .hasMessageContaining("randon")
                .hasMessageContaining("consistenthash, leastactive, p2c, random, roundrobin, shortestresponse");
    }
}
