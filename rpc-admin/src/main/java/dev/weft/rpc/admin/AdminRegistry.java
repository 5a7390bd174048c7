package dev.weft.rpc.admin;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.zookeeper.ZookeeperRegistry;

import java.util.List;
import java.util.Objects;

/**
 * The registry as the admin uses it: reads a service's folders, writes and deletes rule nodes
 * (named by the registry itself, so nobody encodes a node name by hand). Turns the registry's
 * failures into {@link AdminException}s naming the registry (its password hidden). Closeable.
 */
final class AdminRegistry implements AutoCloseable {

    private final ZookeeperRegistry registry;

    AdminRegistry(URL url) {
        Objects.requireNonNull(url, "url");
        try {
            this.registry = new ZookeeperRegistry(url);
        } catch (IllegalArgumentException e) {
            throw AdminException.refused("--registry: " + e.getMessage());
        }
    }

    /** The service interfaces under the registry's root. */
    List<String> services() {
        try {
            return registry.services();
        } catch (IllegalStateException e) {
            throw unreachable(e);
        }
    }

    /** Everything the registry holds for {@code service}. */
    ServiceSnapshot read(String service) {
        URL query = URL.valueOf("admin://0.0.0.0/" + service + "?interface=" + service
                + "&group=*&version=*&category=providers,consumers,configurators,routers");
        try {
            return ServiceSnapshot.of(service, registry.lookup(query));
        } catch (IllegalStateException e) {
            throw unreachable(e);
        }
    }

    /** Writes the persistent node of {@code rule}. */
    void write(URL rule) {
        try {
            registry.register(rule);
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new AdminException(AdminException.REGISTRY, "registry " + registry.getUrl() + " refused the rule: "
                    + e.getMessage());
        }
    }

    /** Deletes the node of {@code rule}. */
    void delete(URL rule) {
        try {
            registry.unregister(rule);
        } catch (IllegalStateException e) {
            throw new AdminException(AdminException.REGISTRY, "registry " + registry.getUrl() + " refused the delete: "
                    + e.getMessage());
        }
    }

    private AdminException unreachable(IllegalStateException e) {
        return new AdminException(AdminException.REGISTRY, "registry " + registry.getUrl() + " could not be read: "
                + e.getMessage());
    }

    @Override
    public void close() {
        registry.close();
    }
}
