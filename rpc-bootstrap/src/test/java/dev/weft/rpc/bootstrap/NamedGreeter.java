package dev.weft.rpc.bootstrap;

/** A {@link Greeter} that answers with its name, so a test sees which provider answered. */
record NamedGreeter(String name) implements Greeter {
    @Override
    public String greet(String who) {
        return name + ":" + who;
    }
}
