package dev.weft.rpc.admin;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.Categories;
import dev.weft.rpc.registry.Configurator;
import dev.weft.rpc.registry.OverrideRules;

import java.util.ArrayList;
import java.util.List;

/**
 * What the registry holds for one service interface, read once: its providers, consumers, override
 * rules and routing rules, as URLs (every group and version). Immutable.
 */
record ServiceSnapshot(String service, List<URL> providers, List<URL> consumers, List<URL> overrides, List<URL> routers) {

    static ServiceSnapshot of(String service, List<URL> urls) {
        List<URL> providers = new ArrayList<>();
        List<URL> consumers = new ArrayList<>();
        List<URL> overrides = new ArrayList<>();
        List<URL> routers = new ArrayList<>();
        for (URL url : urls) {
            switch (Categories.of(url)) {
                case Categories.PROVIDERS -> providers.add(url);
                case Categories.CONSUMERS -> consumers.add(url);
                case Categories.CONFIGURATORS -> overrides.add(url);
                case Categories.ROUTERS -> routers.add(url);
                default -> {
                    // another category: not shown
                }
            }
        }
        return new ServiceSnapshot(service, List.copyOf(providers), List.copyOf(consumers), List.copyOf(overrides),
                List.copyOf(routers));
    }

    /**
     * The consumers a preview is made for: the registered ones, or when there are none one that
     * stands for any consumer of the service (so that what a rule does to providers is still shown).
     */
    List<URL> consumersOrAny() {
        return consumers.isEmpty()
                ? List.of(URL.valueOf("consumer://" + Configurator.ANY_HOST + "/" + service + "?interface=" + service))
                : consumers;
    }

    /**
     * The providers {@code consumer}'s directory lists (its group and version, the consumer's keys
     * merged in, {@code rules} applied, disabled ones left out), computed by the directory's code.
     */
    List<URL> providersAsSeenBy(URL consumer, OverrideRules rules) {
        return rules.providersAsSeenBy(consumer, providers);
    }
}
