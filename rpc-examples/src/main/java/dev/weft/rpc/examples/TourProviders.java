package dev.weft.rpc.examples;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.spi.ExtensionDirector;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The tour's providers: one {@link Weft} without a registry exporting a {@link LatentGreetingService}
 * per spec on {@code weft://127.0.0.1:0} (a server per provider, each on the free port it bound).
 * Consumers reach them through {@link #directUrls()}, the value of the consumer key {@code url},
 * whose {@code tour-provider} key puts the spec's {@link TourOutage} (registered in the consumers'
 * director) in front of every attempt at the provider: it counts the attempts and fails those the
 * outage draws ({@link TourOutageFilter}). {@link #close()} shuts the servers down. Not thread-safe: the tour's thread starts a scenario
 * and closes it; the services themselves are thread-safe.
 */
final class TourProviders implements AutoCloseable {

    private final Weft weft;
    private final List<ProviderSpec> specs;
    private final List<TourOutage> outages;
    private final TourOutageFilter.Outages registered;
    private final List<String> addresses;
    private final String directUrls;

    private TourProviders(Weft weft, List<ProviderSpec> specs, List<TourOutage> outages,
                          TourOutageFilter.Outages registered, List<String> addresses, String directUrls) {
        this.weft = weft;
        this.specs = specs;
        this.outages = outages;
        this.registered = registered;
        this.addresses = addresses;
        this.directUrls = directUrls;
    }

    /**
     * Exports every spec, its outage registered for the consumers of {@code consumerDirector};
     * provider {@code i} draws its latencies and outages from {@code seed * 1_000_003 + i}.
     */
    static TourProviders start(List<ProviderSpec> specs, long seed, ExtensionDirector consumerDirector) {
        List<ProviderSpec> copy = List.copyOf(specs);
        Weft weft = Weft.builder().application("playground-tour").build();
        try {
            TourOutageFilter.Outages registered = TourOutageFilter.outagesOf(consumerDirector);
            List<TourOutage> outages = new ArrayList<>();
            List<String> addresses = new ArrayList<>();
            List<String> urls = new ArrayList<>();
            for (int i = 0; i < copy.size(); i++) {
                ProviderSpec spec = copy.get(i);
                long providerSeed = seed * 1_000_003L + i;
                Exporter<GreetingService> exporter = weft.export(GreetingService.class,
                        new LatentGreetingService(spec.name(), spec.latencyNanos(), providerSeed), "weft://127.0.0.1:0");
                int port = exporter.getInvoker().getUrl().getPort();
                TourOutage outage = new TourOutage(spec, providerSeed);
                registered.put(address(port), outage);
                outages.add(outage);
                addresses.add(address(port));
                urls.add(directUrl(spec, port));
            }
            return new TourProviders(weft, copy, List.copyOf(outages), registered, List.copyOf(addresses),
                    String.join(",", urls));
        } catch (RuntimeException e) {
            weft.close();
            throw e;
        }
    }

    private static String address(int port) {
        return "127.0.0.1:" + port;
    }

    /**
     * The provider URL a consumer refers for {@code spec} served on {@code port}: without a
     * registry the consumer learns a provider's {@code weight} and {@code zone} only from it, and
     * its {@code tour-provider} key turns on the provider's injected outage.
     */
    static String directUrl(ProviderSpec spec, int port) {
        return "weft://" + address(port) + "/" + GreetingService.class.getName() + "?weight=" + spec.weight()
                + (spec.zone() == null ? "" : "&zone=" + spec.zone()) + "&" + TourOutageFilter.KEY + "=" + spec.name();
    }

    /** The providers' URLs, comma-separated, in spec order: the consumer key {@code url}. */
    String directUrls() {
        return directUrls;
    }

    /** The specs served, in order. */
    List<ProviderSpec> specs() {
        return specs;
    }

    /** Fresh counters for the next scenario, one per provider in spec order, installed at once. */
    List<ProviderCounters> startCounting() {
        List<ProviderCounters> counters = new ArrayList<>();
        for (TourOutage outage : outages) {
            ProviderCounters next = new ProviderCounters();
            outage.countInto(next);
            counters.add(next);
        }
        return List.copyOf(counters);
    }

    @Override
    public void close() {
        weft.close();
        addresses.forEach(registered::remove);
    }

    @Override
    public String toString() {
        return "TourProviders" + specs.stream().map(ProviderSpec::name).collect(Collectors.joining(",", "[", "]"))
                + " at " + directUrls;
    }
}
