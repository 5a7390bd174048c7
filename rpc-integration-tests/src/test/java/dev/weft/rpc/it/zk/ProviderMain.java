package dev.weft.rpc.it.zk;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.protocol.Exporter;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A provider JVM for the cross-process tests: exports {@link GreetingService} through {@link Weft}
 * on 127.0.0.1, port 0, registered in the registry given as the first argument, under the id given
 * as the second. It prints {@code READY <registered URL>} once registered and closes its
 * {@code Weft} (unregister, graceful unexport) when its standard input ends; a kill -9 ends it
 * without either.
 */
public final class ProviderMain {

    static final String READY = "READY ";

    private ProviderMain() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("arguments: " + args.length + " (expected: <registry URL> <provider id>)");
        }
        try (Weft weft = Weft.builder().registry(args[0]).application("provider-" + args[1]).build()) {
            Exporter<GreetingService> exporter = weft.export(GreetingService.class, new NamedGreeter(args[1]),
                    "weft://127.0.0.1:0");
            System.out.println(READY + exporter.getInvoker().getUrl().toFullString());
            System.out.flush();
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            while (stdin.readLine() != null) {
                // wait for end of input: the parent's order to stop
            }
        }
    }
}
