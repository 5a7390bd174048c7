package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.protocol.Exporter;

import java.io.IOException;

/**
 * A provider in its own JVM for tests that stop it with signals: exports {@link Shapes} on a free
 * port of 127.0.0.1 with the query in {@code args[0]}, prints {@code PORT <n>}, and exits when its
 * standard input ends (its parent closed it or died).
 */
public final class ChildProvider {

    private ChildProvider() {
    }

    public static void main(String[] args) throws IOException {
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, new ShapesImpl(), args.length > 0 ? args[0] : "");
            System.out.println("PORT " + exporter.getInvoker().getUrl().getPort());
            System.out.flush();
            while (System.in.read() >= 0) {
                // until the parent closes our input
            }
        }
    }
}
