package dev.weft.rpc.benchmarks;

import java.util.Locale;

/**
 * The things the network benchmark compares: Weft's {@code weft} protocol, sync and async
 * ({@code weft-async}: an {@link AsyncGreeter} with a {@code CompletableFuture} method, one caller
 * thread keeping the calls in flight), Apache Dubbo 3.3.6's {@code dubbo} protocol (same
 * {@link Greeter} interface, one shared connection), and a raw Netty echo of the same size. Each
 * names the class path file Maven writes for it ({@code target/net/<name>.classpath}): that
 * target's dependencies only.
 */
enum NetTarget {
    WEFT("weft", "weft"),
    WEFT_ASYNC("weft-async", "weft"),
    DUBBO("dubbo", "dubbo"),
    ECHO("echo", "echo");

    private final String key;
    private final String classPathKey;

    NetTarget(String key, String classPathKey) {
        this.key = key;
        this.classPathKey = classPathKey;
    }

    /** The name used on the command line and in the printed table. */
    String key() {
        return key;
    }

    /** The name of the class path file ({@code weft-async} runs on Weft's). */
    String classPathKey() {
        return classPathKey;
    }

    /** Parses {@code weft}, {@code weft-async}, {@code dubbo} or {@code echo}. */
    static NetTarget of(String key) {
        String wanted = key.trim().toLowerCase(Locale.ROOT);
        for (NetTarget target : values()) {
            if (target.key.equals(wanted)) {
                return target;
            }
        }
        throw new IllegalArgumentException("net target: " + key + " (expected: one of weft, weft-async, dubbo, echo)");
    }

    /** This target's code; only the chosen class is loaded, so the others' frameworks may be absent. */
    NetSide side() {
        switch (this) {
            case WEFT:
                return new WeftSide();
            case WEFT_ASYNC:
                return new WeftAsyncSide();
            case DUBBO:
                return new DubboSide();
            default:
                return new EchoSide();
        }
    }
}
