package dev.weft.rpc.benchmarks;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.Adaptive;
import dev.weft.rpc.spi.SPI;

/**
 * A tiny Weft SPI used to time one adaptive dispatch in isolation (mirror of {@link DubboGreeting}).
 */
@SPI("hello")
public interface WeftGreeting {
    /** Greets {@code name}; the extension is chosen by the URL key {@code greeting}. */
    @Adaptive("greeting")
    String greet(URL url, String name);

    /** The default extension. */
    final class Hello implements WeftGreeting {
        @Override
        public String greet(URL url, String name) {
            return "Hello, " + name;
        }
    }

    /** The extension the benchmark URL selects. */
    final class Hi implements WeftGreeting {
        @Override
        public String greet(URL url, String name) {
            return "Hi, " + name;
        }
    }
}
