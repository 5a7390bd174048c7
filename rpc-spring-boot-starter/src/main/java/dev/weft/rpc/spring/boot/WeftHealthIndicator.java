package dev.weft.rpc.spring.boot;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.cluster.AbstractDirectory;
import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.registry.RegistryDirectory;
import dev.weft.rpc.registry.RegistryHealth;
import dev.weft.rpc.spring.boot.internal.ReferenceLedger;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The actuator's {@code weft} health: DOWN when an export is not bound, when the registry
 * session is lost or closed, or when a reference has no available provider; UP otherwise. Details:
 * {@code registry} (URL and session state, as seen by the references), {@code exports} (URL and
 * whether bound, per service) and {@code references} (providers known and available, per
 * reference). Thread-safe.
 */
public final class WeftHealthIndicator extends AbstractHealthIndicator {

    private final Weft weft;
    private final WeftServiceExports exports;
    private final String registry;

    WeftHealthIndicator(Weft weft, WeftServiceExports exports, WeftProperties properties) {
        super("weft health check failed");
        this.weft = Objects.requireNonNull(weft, "weft");
        this.exports = Objects.requireNonNull(exports, "exports");
        this.registry = properties.getRegistry();
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        boolean up = true;
        Map<String, Object> exported = new LinkedHashMap<>();
        for (Exporter<?> exporter : exports.exporters()) {
            Invoker<?> invoker = exporter.getInvoker();
            boolean bound = invoker.isAvailable();
            up &= bound;
            exported.put(label(invoker.getUrl()), Map.of("url", invoker.getUrl().toString(), "bound", bound));
        }
        Map<String, Object> referred = new LinkedHashMap<>();
        RegistryHealth.State session = null;
        for (Directory<?> directory : weft.director().getExtensionLoader(ReferenceLedger.class).getDefaultExtension()
                .directories()) {
            List<? extends Invoker<?>> providers = directory instanceof AbstractDirectory<?> known
                    ? known.getAllInvokers() : List.of();
            long available = providers.stream().filter(Invoker::isAvailable).count();
            up &= available > 0;
            referred.put(label(directory.getUrl()), Map.of("providers", providers.size(), "available", available));
            if (session == null && directory instanceof RegistryDirectory<?> fromRegistry) {
                session = fromRegistry.getRegistryHealth().map(RegistryHealth::getState).orElse(null);
            }
        }
        if (registry != null && !registry.isBlank()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("url", URL.valueOf(registry).toString());
            Optional.ofNullable(session).ifPresent(state -> details.put("session", state.name()));
            up &= session != RegistryHealth.State.LOST && session != RegistryHealth.State.CLOSED;
            builder.withDetail("registry", details);
        }
        builder.withDetail("exports", exported).withDetail("references", referred);
        if (up) {
            builder.up();
        } else {
            builder.down();
        }
    }

    /** {@code interface}, with {@code group} and {@code version} when set ({@code group/interface:version}). */
    private static String label(URL url) {
        String group = url.getParameter("group", "");
        String version = url.getParameter("version", "");
        return (group.isEmpty() ? "" : group + "/") + url.getServiceInterface() + (version.isEmpty() ? "" : ":" + version);
    }
}
