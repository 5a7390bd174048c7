package dev.weft.rpc.loadbalance.archfixture;

import dev.weft.rpc.spi.SPI;

/** Architecture-rule fixture: an extension point of the "loadbalance" module. */
@SPI("fixture")
public interface FixtureSpi {
    int pick();
}
