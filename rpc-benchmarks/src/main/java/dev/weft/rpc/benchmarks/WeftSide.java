package dev.weft.rpc.benchmarks;

import dev.weft.rpc.bootstrap.Weft;

/**
 * Weft's {@code weft} protocol the way a user reaches it: {@link Weft#export} on the server,
 * {@link Weft#refer} with a direct provider URL on the client (cluster, mock wrapper, filters and
 * proxy included), no registry.
 */
final class WeftSide implements NetSide {

    @Override
    public int serve() {
        Weft weft = Weft.builder().build();
        return weft.export(Greeter.class, new GreeterImpl(), "weft://127.0.0.1:0").getInvoker().getUrl().getPort();
    }

    @Override
    public Greeter connect(int port) {
        Weft weft = Weft.builder().build();
        return weft.refer(Greeter.class, "url=weft://127.0.0.1:" + port + "&timeout=10000");
    }
}
