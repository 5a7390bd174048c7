package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.Registry;
import dev.weft.rpc.registry.RegistryFactory;

import java.util.Objects;

/**
 * The {@code zookeeper} registry factory: each call opens a new {@link ZookeeperRegistry} (its own
 * Curator client and session), owned and closed by the caller. Stateless and thread-safe.
 */
public final class ZookeeperRegistryFactory implements RegistryFactory {

    @Override
    public Registry getRegistry(URL url) {
        return new ZookeeperRegistry(Objects.requireNonNull(url, "url"));
    }
}
