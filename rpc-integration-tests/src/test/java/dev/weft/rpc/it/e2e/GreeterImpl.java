package dev.weft.rpc.it.e2e;

import java.util.Queue;

/** A provider implementation: answers with its id and records every call it serves. */
final class GreeterImpl implements Greeter {

    private final String id;
    private final Queue<String> served;

    GreeterImpl(String id, Queue<String> served) {
        this.id = id;
        this.served = served;
    }

    @Override
    public String greet(String name) {
        served.add(id);
        return id + ": hello " + name;
    }

    @Override
    public int add(int a, int b) {
        served.add(id);
        return a + b;
    }
}
