package dev.weft.rpc.cluster;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The resilience of every service the consumers of one {@link ExtensionDirector} call: one
 * {@link ServiceResilience} per service (retry budget, hedges, ejections), created on first use.
 * Two directors never share one. Time comes from the director's ticker.
 *
 * <p>Thread-safe.
 */
public final class ResilienceStats {

    private final Ticker ticker;
    private final ConcurrentMap<String, ServiceResilience> services = new ConcurrentHashMap<>();

    private ResilienceStats(Ticker ticker) {
        this.ticker = ticker;
    }

    /** The resilience statistics of {@code director}, created on first use. */
    public static ResilienceStats of(ExtensionDirector director) {
        Objects.requireNonNull(director, "director");
        return director.getService(ResilienceStats.class, d -> new ResilienceStats(d.getTicker()));
    }

    /** The service named {@code service} ({@code group/interface:version}, see {@link #serviceOf}), created on first use. */
    public ServiceResilience service(String service) {
        return services.computeIfAbsent(Objects.requireNonNull(service, "service"), name -> new ServiceResilience(name, ticker));
    }

    /** Every service seen so far, by name. */
    public Map<String, ServiceResilience> services() {
        return new TreeMap<>(services);
    }

    /** The service a consumer URL calls: {@code group/interface:version}, without the group or version when unset. */
    public static String serviceOf(Class<?> type, URL consumerUrl) {
        String group = consumerUrl.getParameter("group", "");
        String version = consumerUrl.getParameter("version", "");
        return (group.isEmpty() ? "" : group + "/") + type.getName() + (version.isEmpty() ? "" : ":" + version);
    }

    @Override
    public String toString() {
        return "ResilienceStats[" + services.size() + " services]";
    }
}
