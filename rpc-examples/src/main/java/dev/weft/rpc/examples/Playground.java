package dev.weft.rpc.examples;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.ResilienceSettings;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.proxy.ProxyFactory;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionLoader;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs the tour's scenarios on real providers: each distinct provider list is served by a
 * {@link TourProviders} (weft servers on 127.0.0.1, no registry), and each scenario's consumer is
 * {@code Weft.refer} with the scenario's URL parameters plus {@code url=} those providers, so every
 * call goes proxy, mock wrapper, cluster, balancer, filter chain, Netty and back.
 *
 * <p>Every referred consumer stays alive until {@link #close()}, which closes the consumer
 * {@link Weft} and then the providers. The {@link ExtensionDirector} (the consumer side's) belongs
 * to the caller, who closes it after this. Not thread-safe: one thread runs the scenarios.
 */
final class Playground implements AutoCloseable {

    /** The consumer key naming direct provider URLs (read by {@code Weft.refer}); the tour sets it. */
    static final String DIRECT_URLS_KEY = "url";
    /** The weft consumer key that opens a provider's connection on the first call to it. */
    static final String LAZY_KEY = "lazy";

    private final ExtensionLoader<Cluster> clusters;
    private final ExtensionLoader<LoadBalance> loadBalances;
    private final ExtensionLoader<ProxyFactory> proxyFactories;
    private final ExtensionDirector director;
    private final Weft consumers;
    private final long seed;
    private final Map<List<ProviderSpec>, TourProviders> providers = new LinkedHashMap<>();

    Playground(ExtensionDirector director, long seed) {
        Objects.requireNonNull(director, "director");
        this.clusters = director.getExtensionLoader(Cluster.class);
        this.loadBalances = director.getExtensionLoader(LoadBalance.class);
        this.proxyFactories = director.getExtensionLoader(ProxyFactory.class);
        this.director = director;
        this.consumers = Weft.builder().director(director).application("playground").build();
        this.seed = seed;
    }

    /**
     * Checks the extension names a consumer URL asks for ({@code cluster}, {@code proxy},
     * {@code loadbalance} and {@code <method>.loadbalance}), so a typo is one clear error up front.
     *
     * @throws UsageException naming the key, the value and the names available
     */
    void validate(URL consumerUrl) throws UsageException {
        for (Map.Entry<String, String> parameter : consumerUrl.getParameters().entrySet()) {
            String key = parameter.getKey();
            String name = parameter.getValue();
            if (name.isEmpty()) {
                continue;
            }
            if (key.equals("cluster")) {
                check(clusters, key, name);
            } else if (key.equals("proxy")) {
                check(proxyFactories, key, name);
            } else if (key.equals("loadbalance") || key.endsWith(".loadbalance")) {
                check(loadBalances, key, name);
            } else if (key.equals(DIRECT_URLS_KEY)) {
                throw new UsageException("--url " + key + "=" + name + ": the tour chooses the providers (expected:"
                        + " no key '" + DIRECT_URLS_KEY + "'; describe providers with --providers)");
            }
        }
    }

    private static void check(ExtensionLoader<?> loader, String key, String name) throws UsageException {
        if (loader.hasExtension(name)) {
            return;
        }
        String problem;
        try {
            loader.getExtension(name);
            problem = "'" + name + "' (expected one of: " + loader.getSupportedExtensions() + ")";
        } catch (RuntimeException e) {
            problem = e.getMessage(); // the loader's message: the names available and the closest one
        }
        throw new UsageException("--url " + key + "=" + name + ": " + problem);
    }

    /**
     * Refers the scenario's consumer and runs its calls, showing {@code label} in the progress bar.
     *
     * @throws UsageException when {@code Weft.refer} rejects the consumer URL (for example a mock
     *         expression that does not fit the method's return type)
     * @throws InterruptedException when interrupted while waiting for the calls
     */
    ScenarioRun run(Scenario scenario, LoadDriver driver, ProgressBar progress, String label)
            throws UsageException, InterruptedException {
        validate(scenario.consumerUrl());
        TourProviders served = providers.computeIfAbsent(scenario.providers(), specs -> TourProviders.start(specs, seed, director));
        Map<String, String> parameters = new LinkedHashMap<>(scenario.consumerUrl().getParameters());
        parameters.put(DIRECT_URLS_KEY, served.directUrls());
        // The providers run already. lazy=true: each provider's connection is made by the first
        // call that picks it, which waits for it, so the seeded picks of the first calls never
        // depend on which connections happen to be open yet (an eager provider counts only once
        // connected). Then refer need not wait for a connection either (check=false), which a
        // busy machine can make longer than the call's timeout.
        parameters.putIfAbsent(LAZY_KEY, "true");
        parameters.putIfAbsent(LiveCluster.CHECK_KEY, "false");
        // Budget and ejection off: each scenario shows its strategy's own retries. A budget would cut
        // them by timing, and so would ejection: the callers race, an attempt at a provider ejected
        // after its call picked it is refused unsent, and a second such refusal in one failover call
        // ends it an attempt short.
        parameters.putIfAbsent(ResilienceSettings.RETRY_BUDGET_KEY, "1");
        parameters.putIfAbsent(ResilienceSettings.OUTLIER_FAILURES_KEY, "0");
        GreetingService consumer;
        try {
            consumer = consumers.refer(GreetingService.class, parameters);
        } catch (RuntimeException e) {
            throw new UsageException("--url " + scenario.parameters() + ": " + e.getMessage(), e);
        }
        List<ProviderCounters> counters = served.startCounting();
        long start = System.nanoTime();
        CallTally tally = driver.run(consumer, progress, label);
        return new ScenarioRun(scenario, counters, tally, System.nanoTime() - start);
    }

    /** Closes every consumer referred by {@link #run}, then the providers. */
    @Override
    public void close() {
        consumers.close();
        for (TourProviders served : providers.values()) {
            served.close();
        }
        providers.clear();
    }
}
