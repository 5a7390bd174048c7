package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The {@code memory} registry factory: {@code memory://<name>} gives a new {@link MemoryRegistry}
 * handle on the store of that name (host, port and path), so the providers and consumers of one
 * {@code ExtensionDirector} that use the same name see each other. Stores live as long as the
 * factory (that is, the director). Thread-safe.
 */
public final class MemoryRegistryFactory implements RegistryFactory {

    private final ConcurrentMap<String, MemoryRegistry.Store> stores = new ConcurrentHashMap<>();

    @Override
    public Registry getRegistry(URL url) {
        Objects.requireNonNull(url, "url");
        String name = url.getAddress() + "/" + Objects.toString(url.getPath(), "");
        return new MemoryRegistry(url, stores.computeIfAbsent(name, n -> new MemoryRegistry.Store()));
    }
}
