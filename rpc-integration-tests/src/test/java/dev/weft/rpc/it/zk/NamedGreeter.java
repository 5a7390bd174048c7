package dev.weft.rpc.it.zk;

import java.util.Objects;

/** Answers {@code <provider id>:hello <name>} and {@code <provider id>:bye <name>}. Thread-safe. */
public final class NamedGreeter implements GreetingService {

    private final String id;

    public NamedGreeter(String id) {
        this.id = Objects.requireNonNull(id, "id");
    }

    @Override
    public String sayHello(String name) {
        return id + ":hello " + name;
    }

    @Override
    public String sayBye(String name) {
        return id + ":bye " + name;
    }
}
