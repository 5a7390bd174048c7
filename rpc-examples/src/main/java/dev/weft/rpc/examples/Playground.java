package dev.weft.rpc.examples;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.StaticDirectory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.proxy.ProxyFactory;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionLoader;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * Runs scenarios through the full Weft stack, built only from extensions and URL keys:
 * a proxy from the adaptive {@link ProxyFactory}, the cluster invoker from the adaptive
 * {@link Cluster} (wrapped by the mock wrapper because {@code rpc-mock} is on the class path),
 * the balancer the cluster picks by {@code loadbalance}, and provider invokers made by
 * {@link ProxyFactory#getInvoker} around {@link GreetingServiceImpl}, behind a
 * {@link SimulatedNetworkInvoker}.
 *
 * <p>Every cluster invoker stays alive until {@link #close()}, so background work (failback
 * retries) keeps running and counting; {@code close()} destroys them and the directories.
 * The {@link ExtensionDirector} belongs to the caller, who closes it after this. Not thread-safe:
 * one thread runs the scenarios.
 */
final class Playground implements AutoCloseable {

    private final ExtensionLoader<Cluster> clusters;
    private final ExtensionLoader<LoadBalance> loadBalances;
    private final ExtensionLoader<ProxyFactory> proxyFactories;
    private final Cluster cluster;
    private final ProxyFactory proxyFactory;
    private final long seed;
    private final List<Invoker<GreetingService>> joined = new ArrayList<>();
    private final List<StaticDirectory<GreetingService>> directories = new ArrayList<>();

    Playground(ExtensionDirector director, long seed) {
        Objects.requireNonNull(director, "director");
        this.clusters = director.getExtensionLoader(Cluster.class);
        this.loadBalances = director.getExtensionLoader(LoadBalance.class);
        this.proxyFactories = director.getExtensionLoader(ProxyFactory.class);
        this.cluster = clusters.getAdaptiveExtension();
        this.proxyFactory = proxyFactories.getAdaptiveExtension();
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
     * Builds the scenario's consumer and runs its calls, showing {@code label} in the progress bar.
     *
     * @throws UsageException when the Weft stack rejects the consumer URL while building it (for
     *         example a mock expression that does not fit the method's return type)
     * @throws InterruptedException when interrupted while waiting for the calls
     */
    ScenarioRun run(Scenario scenario, LoadDriver driver, ProgressBar progress, String label)
            throws UsageException, InterruptedException {
        validate(scenario.consumerUrl());
        List<ProviderCounters> counters = new ArrayList<>();
        List<Invoker<GreetingService>> providers = new ArrayList<>();
        for (int i = 0; i < scenario.providers().size(); i++) {
            ProviderSpec spec = scenario.providers().get(i);
            ProviderCounters providerCounters = new ProviderCounters();
            counters.add(providerCounters);
            Invoker<GreetingService> provider = proxyFactory.getInvoker(
                    new GreetingServiceImpl(spec.name()), GreetingService.class, spec.url());
            providers.add(new SimulatedNetworkInvoker<>(provider, spec, new Random(seed * 1_000_003L + i),
                    providerCounters));
        }
        GreetingService consumer;
        try {
            StaticDirectory<GreetingService> directory = new StaticDirectory<>(scenario.consumerUrl(), providers);
            directories.add(directory);
            Invoker<GreetingService> clusterInvoker = cluster.join(directory);
            joined.add(clusterInvoker);
            consumer = proxyFactory.getProxy(clusterInvoker);
        } catch (RuntimeException e) {
            throw new UsageException("--url " + scenario.parameters() + ": " + e.getMessage(), e);
        }
        long start = System.nanoTime();
        CallTally tally = driver.run(consumer, progress, label);
        return new ScenarioRun(scenario, counters, tally, System.nanoTime() - start);
    }

    /** Destroys every cluster invoker and directory built by {@link #run}. */
    @Override
    public void close() {
        for (Invoker<GreetingService> invoker : joined) {
            invoker.destroy();
        }
        for (StaticDirectory<GreetingService> directory : directories) {
            directory.destroy();
        }
        joined.clear();
        directories.clear();
    }
}
