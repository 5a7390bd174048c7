package dev.weft.rpc.benchmarks;

/** The raw Netty echo: no framework, no serialization (see {@link NetEcho}). */
final class EchoSide implements NetSide {

    @Override
    public int serve() {
        return NetEcho.serve();
    }

    @Override
    public Greeter connect(int port) {
        return NetEcho.connect(port);
    }
}
