package dev.weft.rpc.examples;

import dev.weft.rpc.admin.WeftAdmin;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operator's commands of {@code weft-admin.jar} ({@link WeftAdmin}), run in this JVM against the
 * live cluster's ZooKeeper: every rule the live run writes is checked, previewed and written by the
 * same code an operator runs (docs/operating.md), never by hand-encoded node names. Each command
 * opens its own registry connection and closes it. Thread-safe (stateless apart from the registry
 * address).
 */
final class AdminCommands {

    /** The line {@code override} and {@code route} print once written: {@code written <id> (undo: ...)}. */
    private static final Pattern WRITTEN = Pattern.compile("^written (\\S+) ", Pattern.MULTILINE);

    private final String registry;

    /** Commands against the ZooKeeper at {@code connectString} ({@code host:port}). */
    AdminCommands(String connectString) {
        this.registry = "zookeeper://" + Objects.requireNonNull(connectString, "connectString");
    }

    /**
     * {@code override SERVICE [--address host:port] key=value...} for {@link GreetingService}.
     *
     * @param address the provider the rule applies to, or {@code null} for every consumer
     * @return the written rule's id (what {@link #deleteRule} takes)
     * @throws IllegalStateException when the admin refused the rule or could not write it (its message)
     */
    String override(String address, String... keyValues) {
        List<String> args = new ArrayList<>(List.of("override", Operator.SERVICE));
        if (address != null) {
            args.addAll(List.of("--address", address));
        }
        args.addAll(List.of(keyValues));
        String out = run(args);
        Matcher written = WRITTEN.matcher(out);
        if (!written.find()) {
            throw new IllegalStateException("weft-admin " + String.join(" ", args) + ": no 'written' line in " + out);
        }
        return written.group(1);
    }

    /**
     * Runs {@code override --dry-run} of the mock rule, writing nothing: the admin's classes, its rule
     * checks and a registry connection are then warm, so the run's first rule is written about as
     * fast as the next ones.
     */
    void warmUp() {
        run(List.of("override", Operator.SERVICE, "--dry-run", LiveCluster.MOCK_RULE));
    }

    /** {@code delete-rule SERVICE id} for {@link GreetingService}. */
    void deleteRule(String id) {
        run(List.of("delete-rule", Operator.SERVICE, Objects.requireNonNull(id, "id")));
    }

    private String run(List<String> args) {
        List<String> command = new ArrayList<>(List.of("--registry", registry));
        command.addAll(args);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = WeftAdmin.run(command, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        if (code != 0) {
            throw new IllegalStateException("weft-admin " + String.join(" ", args) + ": exit " + code + ": "
                    + err.toString(StandardCharsets.UTF_8).strip());
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
