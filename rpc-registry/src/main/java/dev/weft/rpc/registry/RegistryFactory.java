package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.Adaptive;
import dev.weft.rpc.spi.SPI;

/** Opens a {@link Registry} for a registry URL, chosen by its scheme ({@code zookeeper://...}). */
@SPI("zookeeper")
public interface RegistryFactory {

    /** The registry at {@code url}; the caller owns it and closes it. */
    @Adaptive("protocol")
    Registry getRegistry(URL url);
}
