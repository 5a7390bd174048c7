package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.protocol.Exporter;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A provider in its own JVM for tests that stop it with signals: exports {@link Shapes} on a free
 * port of 127.0.0.1 with the query in {@code args[0]}, prints {@code PORT <n>}, answers each line
 * {@code marked} on its standard input with {@code MARKED <n>} (the {@code echo} calls with a
 * {@link ShapesImpl#MARK marked} argument that ran its implementation), and exits when its
 * standard input ends (its parent closed it or died).
 */
public final class ChildProvider {

    private ChildProvider() {
    }

    public static void main(String[] args) throws IOException {
        ShapesImpl impl = new ShapesImpl();
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, impl, args.length > 0 ? args[0] : "");
            System.out.println("PORT " + exporter.getInvoker().getUrl().getPort());
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                if (line.equals("marked")) {
                    System.out.println("MARKED " + impl.markedEchoes.get());
                    System.out.flush();
                }
            }
        }
    }
}
