package dev.weft.rpc.cluster.archfixture;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Breaks the static-state rule three ways (a fixture of WeftRulesSelfTest). */
public final class StaticState {
    static int counter;
    static final AtomicLong CALLS = new AtomicLong();
    static final ConcurrentHashMap<String, Object> REGISTRY = new ConcurrentHashMap<>();
    static final Map<String, String> CONSTANTS = Map.of("a", "b");
    static final String NAME = "fine";

    private StaticState() {
    }

    static long touch() {
        counter++;
        REGISTRY.put(NAME, CONSTANTS);
        return CALLS.incrementAndGet();
    }
}
