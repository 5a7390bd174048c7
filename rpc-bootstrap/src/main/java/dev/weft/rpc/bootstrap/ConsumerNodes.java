package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.URL;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The {@code consumers} registrations of one registry, counted: refers with identical consumer
 * URLs share one registry node (the registry keeps one registration per node), so the node is
 * registered by the first and unregistered with the last. Thread-safe: registering and
 * unregistering run under one lock, so a node is never deleted while a refer still counts on it.
 */
final class ConsumerNodes {

    private final Consumer<URL> register;
    private final Consumer<URL> unregister;
    private final Map<URL, Integer> refers = new HashMap<>();

    ConsumerNodes(Consumer<URL> register, Consumer<URL> unregister) {
        this.register = Objects.requireNonNull(register, "register");
        this.unregister = Objects.requireNonNull(unregister, "unregister");
    }

    /** Counts one more refer of {@code node}, registering it for the first. */
    synchronized void acquire(URL node) {
        int count = refers.getOrDefault(node, 0);
        if (count == 0) {
            register.accept(node);
        }
        refers.put(node, count + 1);
    }

    /** Counts one refer of {@code node} less, unregistering it with the last. */
    synchronized void release(URL node) {
        int count = refers.getOrDefault(node, 0);
        if (count > 1) {
            refers.put(node, count - 1);
        } else if (count == 1) {
            refers.remove(node);
            unregister.accept(node);
        }
    }
}
