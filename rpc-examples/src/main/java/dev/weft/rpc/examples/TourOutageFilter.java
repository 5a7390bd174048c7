package dev.weft.rpc.examples;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.protocol.ChainScopedFilter;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;

import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code tour-outage}: the consumer filter that makes the tour's failures look to Weft like a real
 * outage. Active on the provider URLs a tour consumer refers ({@code tour-provider=<name>}, see
 * {@link TourProviders#directUrl}): each attempt at such a provider goes through the provider's
 * {@link TourOutage}, registered under the provider's address in the consumer director's
 * {@link Outages}, which fails the attempts it draws with a network failure before anything is
 * sent. The consumer's cluster sees it as it sees a provider it cannot reach.
 *
 * <p>Why on the consumer: a provider cannot make the consumer see a network failure. An
 * {@code RpcException} thrown by its implementation is the service's answer, never retried, and a
 * provider filter's {@code NOT_PROCESSED} refusal is retried once elsewhere by every strategy
 * (failfast and failsafe included), so neither shows the strategies' own semantics.
 *
 * <p>The failure comes at once, without the provider's latency: nothing reaches the provider.
 *
 * <p>Thread-safe: each chain's filter shares its provider's thread-safe {@link TourOutage}.
 */
@Activate(group = FilterChain.CONSUMER, value = TourOutageFilter.KEY, order = 1_000)
public final class TourOutageFilter implements ChainScopedFilter, ExtensionDirectorAware {

    /** Provider URL key (in a tour consumer's {@code url=} entries): the tour provider's name. */
    static final String KEY = "tour-provider";

    private volatile Outages outages = new Outages();

    /** The instance the extension loader creates. */
    public TourOutageFilter() {
    }

    /** The outages of the tour providers that {@code director}'s consumers refer, by provider address. */
    static Outages outagesOf(ExtensionDirector director) {
        return director.getService(Outages.class, d -> new Outages());
    }

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        outages = outagesOf(director);
    }

    /**
     * The filter of the attempts at one provider.
     *
     * @throws IllegalArgumentException when no outage is registered under the provider's address
     */
    @Override
    public Filter forChain(Invoker<?> invoker) {
        TourOutage outage = outages.get(invoker.getUrl().getAddress(), invoker.getUrl().getParameter(KEY, ""));
        return (next, invocation) -> {
            if (outage.fails()) {
                throw outage.failure();
            }
            return next.invoke(invocation);
        };
    }

    @Override
    public String toString() {
        return "tour-outage";
    }

    /** The tour outages known to one director's consumers, by provider address ({@code host:port}). Thread-safe. */
    static final class Outages {

        private final Map<String, TourOutage> byAddress = new ConcurrentHashMap<>();

        /** Registers {@code outage} for the provider at {@code address}, replacing one left by a closed provider. */
        void put(String address, TourOutage outage) {
            byAddress.put(Objects.requireNonNull(address, "address"), Objects.requireNonNull(outage, "outage"));
        }

        /** Forgets the outage of the provider at {@code address}, if any. */
        void remove(String address) {
            byAddress.remove(address);
        }

        TourOutage get(String address, String providerName) {
            TourOutage outage = byAddress.get(address);
            if (outage == null) {
                throw new IllegalArgumentException(KEY + "=" + providerName + " at " + address
                        + ": no tour outage registered for this address (expected one of: "
                        + new TreeSet<>(byAddress.keySet()) + ")");
            }
            return outage;
        }
    }
}
