package dev.weft.rpc.examples;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The main class of a provider child JVM: {@code ProviderProcess <registry URL> <provider spec> <seed>}.
 * Exports one provider through {@code Weft}, prints {@code ready <port>} on stdout, then serves until
 * its stdin closes (the parent's graceful shutdown), when it closes the {@code Weft} and exits 0.
 * Meanwhile each byte read from stdin is a brownout command ({@link #command}). A kill needs no cooperation.
 */
public final class ProviderProcess {

    static final String READY = "ready ";

    private ProviderProcess() {
    }

    /** The stdin byte that puts a child provider in {@code phase}: the phase's ordinal as an ASCII digit. */
    static int command(Brownout.Phase phase) {
        return '0' + phase.ordinal();
    }

    /** The phase of a stdin byte, or {@code null} for a byte that is no command. */
    static Brownout.Phase phaseOf(int command) {
        int ordinal = command - '0';
        return ordinal >= 0 && ordinal < Brownout.Phase.values().length ? Brownout.Phase.values()[ordinal] : null;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: ProviderProcess <registry URL> <provider spec> <seed>");
            System.exit(Main.EXIT_USAGE);
        }
        ProviderSpec spec;
        try {
            spec = ProviderSpecParser.parse(args[1]).get(0);
        } catch (UsageException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(Main.EXIT_USAGE);
            return;
        }
        try (InJvmProvider provider = InJvmProvider.start(spec, args[0], Long.parseLong(args[2]))) {
            PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
            out.println(READY + provider.port());
            for (int command = System.in.read(); command >= 0; command = System.in.read()) {
                // serve until the parent closes our stdin, browning out when told to
                Brownout.Phase phase = phaseOf(command);
                if (phase != null) {
                    provider.brownout(phase);
                }
            }
        }
    }
}
