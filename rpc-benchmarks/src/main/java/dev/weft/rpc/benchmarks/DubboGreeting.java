package dev.weft.rpc.benchmarks;

import org.apache.dubbo.common.URL;
import org.apache.dubbo.common.extension.Adaptive;
import org.apache.dubbo.common.extension.SPI;

/**
 * A tiny Dubbo SPI used to time one adaptive dispatch in isolation (mirror of {@link WeftGreeting}).
 */
@SPI("hello")
public interface DubboGreeting {
    /** Greets {@code name}; the extension is chosen by the URL key {@code greeting}. */
    @Adaptive("greeting")
    String greet(URL url, String name);

    /** The default extension. */
    final class Hello implements DubboGreeting {
        @Override
        public String greet(URL url, String name) {
            return "Hello, " + name;
        }
    }

    /** The extension the benchmark URL selects. */
    final class Hi implements DubboGreeting {
        @Override
        public String greet(URL url, String name) {
            return "Hi, " + name;
        }
    }
}
