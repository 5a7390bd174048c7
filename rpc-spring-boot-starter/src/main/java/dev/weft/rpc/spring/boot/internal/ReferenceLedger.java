package dev.weft.rpc.spring.boot.internal;

import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.spi.SPI;

import java.util.List;

/**
 * The directories of the references made through one extension director (one per director, so
 * one per {@code Weft}), recorded by {@link LedgerClusterWrapper} for the health indicator.
 * Implementations are thread-safe.
 */
@SPI(ReferenceLedger.DEFAULT)
public interface ReferenceLedger {

    /** The name of the one implementation. */
    String DEFAULT = "default";

    /** Records a directory a cluster was joined to. */
    void add(Directory<?> directory);

    /** The recorded directories not destroyed yet, oldest first. */
    List<Directory<?>> directories();
}
