package dev.weft.rpc.bootstrap;

/**
 * Run in a child JVM by {@link WeftShutdownHookTest}: exports a service from a Weft built with
 * {@code closeOnShutdown()}, prints its port and leaves it open:
 * the server keeps the JVM running until it is stopped.
 */
public final class ShutdownHookMain {

    private ShutdownHookMain() {
    }

    public static void main(String[] args) {
        Weft weft = Weft.builder().closeOnShutdown().build();
        int port = weft.export(Greeter.class, new NamedGreeter("hook"), "weft://127.0.0.1:0").getInvoker().getUrl().getPort();
        System.out.println("exported on port " + port);
        System.out.flush();
    }
}
