package dev.weft.rpc.examples;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.protocol.Exporter;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The tour's providers: one {@link Weft} without a registry exporting a {@link TourGreetingService}
 * per spec on {@code weft://127.0.0.1:0} (a server per provider, each on the free port it bound).
 * Consumers reach them through {@link #directUrls()}, the value of the consumer key {@code url}.
 * {@link #close()} shuts the servers down. Not thread-safe: the tour's thread starts a scenario
 * and closes it; the services themselves are thread-safe.
 */
final class TourProviders implements AutoCloseable {

    private final Weft weft;
    private final List<ProviderSpec> specs;
    private final List<TourGreetingService> services;
    private final String directUrls;

    private TourProviders(Weft weft, List<ProviderSpec> specs, List<TourGreetingService> services, String directUrls) {
        this.weft = weft;
        this.specs = specs;
        this.services = services;
        this.directUrls = directUrls;
    }

    /** Exports every spec; provider {@code i} draws from {@code seed * 1_000_003 + i}. */
    static TourProviders start(List<ProviderSpec> specs, long seed) {
        List<ProviderSpec> copy = List.copyOf(specs);
        Weft weft = Weft.builder().application("playground-tour").build();
        try {
            List<TourGreetingService> services = new ArrayList<>();
            List<String> urls = new ArrayList<>();
            for (int i = 0; i < copy.size(); i++) {
                ProviderSpec spec = copy.get(i);
                TourGreetingService service = new TourGreetingService(spec, seed * 1_000_003L + i);
                Exporter<GreetingService> exporter = weft.export(GreetingService.class, service, "weft://127.0.0.1:0");
                services.add(service);
                urls.add(directUrl(spec, exporter.getInvoker().getUrl().getPort()));
            }
            return new TourProviders(weft, copy, List.copyOf(services), String.join(",", urls));
        } catch (RuntimeException e) {
            weft.close();
            throw e;
        }
    }

    /**
     * The provider URL a consumer refers for {@code spec} served on {@code port}: without a
     * registry the consumer learns a provider's {@code weight} and {@code zone} only from it.
     */
    static String directUrl(ProviderSpec spec, int port) {
        return "weft://127.0.0.1:" + port + "/" + GreetingService.class.getName() + "?weight=" + spec.weight()
                + (spec.zone() == null ? "" : "&zone=" + spec.zone());
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
        for (TourGreetingService service : services) {
            ProviderCounters next = new ProviderCounters();
            service.countInto(next);
            counters.add(next);
        }
        return List.copyOf(counters);
    }

    @Override
    public void close() {
        weft.close();
    }

    @Override
    public String toString() {
        return "TourProviders" + specs.stream().map(ProviderSpec::name).collect(Collectors.joining(",", "[", "]"))
                + " at " + directUrls;
    }
}
