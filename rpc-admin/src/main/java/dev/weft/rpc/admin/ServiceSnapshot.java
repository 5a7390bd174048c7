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

    /** The providers {@code consumer} lists (its group and version), as it sees them with {@code rules} applied. */
    List<URL> providersAsSeenBy(URL consumer, OverrideRules rules) {
        List<URL> seen = new ArrayList<>();
        for (URL provider : providers) {
            if (sameKey(provider, consumer, "group") && sameKey(provider, consumer, "version")) {
                seen.add(rules.configureProvider(provider, consumer));
            }
        }
        return seen;
    }

    /** Whether the two URLs agree on {@code key} (the service key's group and version; absent is empty). */
    private static boolean sameKey(URL a, URL b, String key) {
        return a.getParameter(key, "").equals(b.getParameter(key, ""));
    }
}
