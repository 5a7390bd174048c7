package dev.weft.rpc.benchmarks;

import java.util.Locale;

/**
 * The three things the network benchmark compares: Weft's {@code weft} protocol, Apache Dubbo
 * 3.3.6's {@code dubbo} protocol (same {@link Greeter} interface, one shared connection), and a
 * raw Netty echo of the same size. Each names the class path file Maven writes for it
 * ({@code target/net/<name>.classpath}): that target's dependencies only.
 */
enum NetTarget {
    WEFT,
    DUBBO,
    ECHO;

    /** The lower-case name used on the command line and for the class path file. */
    String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code weft}, {@code dubbo} or {@code echo}. */
    static NetTarget of(String key) {
        return valueOf(key.trim().toUpperCase(Locale.ROOT));
    }

    /** This target's code; only the chosen class is loaded, so the others' frameworks may be absent. */
    NetSide side() {
        switch (this) {
            case WEFT:
                return new WeftSide();
            case DUBBO:
                return new DubboSide();
            default:
                return new EchoSide();
        }
    }
}
