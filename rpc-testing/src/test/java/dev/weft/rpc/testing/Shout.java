package dev.weft.rpc.testing;

import dev.weft.rpc.spi.SPI;

/** An extension point for the director tests; {@code loud} is registered by descriptor. */
@SPI("loud")
public interface Shout {

    String shout(String text);
}
