package dev.weft.rpc.admin;

import dev.weft.rpc.common.NameSuggestions;
import dev.weft.rpc.common.URL;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One command line of {@code weft-admin}, checked: the registry, the command, its service, its
 * operands and options. Every problem is found here, before the registry is contacted. Immutable.
 *
 * @param registry the registry URL ({@code zookeeper://[user:password@]host:port}); null for {@code --help}
 * @param command  one of {@link #COMMANDS}, or {@code --help}
 * @param service  the service interface the command is about; null for {@code services} and {@code --help}
 * @param operands what follows the service ({@code key=value}s, a rule, a rule id)
 * @param address  {@code --address host:port}, or null
 * @param dryRun   {@code --dry-run}
 * @param force    {@code --force}
 * @param priority {@code --priority N} (default 0)
 */
record Arguments(URL registry, String command, String service, List<String> operands, String address, boolean dryRun,
                 boolean force, int priority) {

    static final String HELP = "--help";
    static final List<String> COMMANDS = List.of("services", "providers", "consumers", "rules", "override", "route",
            "delete-rule");
    private static final Set<String> OPTIONS = Set.of("--registry", "--address", "--dry-run", "--force", "--priority", HELP);
    private static final Pattern SERVICE = Pattern.compile("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*");
    private static final Pattern ADDRESS = Pattern.compile("([A-Za-z0-9._\\-]+|\\[[0-9A-Fa-f:.]+]):([0-9]{1,5})");

    /**
     * The command line {@code args}.
     *
     * @throws AdminException ({@link AdminException#REFUSED}) naming what is wrong and what is expected
     */
    static Arguments parse(List<String> args) {
        Objects.requireNonNull(args, "args");
        String registry = null;
        String address = null;
        boolean dryRun = false;
        boolean force = false;
        Integer priority = null;
        boolean help = args.isEmpty();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String value = null;
            if (arg.startsWith("--") && arg.contains("=")) {
                value = arg.substring(arg.indexOf('=') + 1);
                arg = arg.substring(0, arg.indexOf('='));
            }
            switch (arg) {
                case HELP, "-h" -> help = true;
                case "--dry-run" -> dryRun = true;
                case "--force" -> force = true;
                case "--registry", "--address", "--priority" -> {
                    if (value == null) {
                        if (i + 1 >= args.size()) {
                            throw AdminException.refused(arg + ": no value (expected: " + arg + " " + placeholder(arg) + ")");
                        }
                        value = args.get(++i);
                    }
                    switch (arg) {
                        case "--registry" -> registry = value;
                        case "--address" -> address = value;
                        default -> priority = priority(value);
                    }
                }
                default -> {
                    if (arg.startsWith("--")) {
                        String closest = NameSuggestions.closest(arg, OPTIONS);
                        throw AdminException.refused("option: " + arg + " (expected: one of " + OPTIONS.stream().sorted().toList()
                                + (closest == null ? "" : "; did you mean '" + closest + "'?") + ")");
                    }
                    positional.add(args.get(i));
                }
            }
        }
        if (help) {
            return new Arguments(null, HELP, null, List.of(), null, false, false, 0);
        }
        String command = positional.isEmpty() ? null : positional.get(0);
        if (command == null || !COMMANDS.contains(command)) {
            String closest = command == null ? null : NameSuggestions.closest(command, COMMANDS);
            throw AdminException.refused("command: " + command + " (expected: one of " + COMMANDS
                    + (closest == null ? "" : "; did you mean '" + closest + "'?") + "; see --help)");
        }
        if (registry == null) {
            throw AdminException.refused("--registry: none (expected: --registry zookeeper://host:port)");
        }
        URL registryUrl = registryUrl(registry);
        checkOptions(command, address, dryRun, force, priority);
        if (address != null && !ADDRESS.matcher(address).matches()) {
            throw AdminException.refused("--address: " + address + " (expected: host:port of a provider, such as 10.0.0.7:20880)");
        }
        if (address != null) {
            int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
            if (port < 1 || port > 65535) {
                throw AdminException.refused("--address: " + address + " (expected: a port 1-65535)");
            }
        }
        List<String> rest = positional.subList(1, positional.size());
        if (command.equals("services")) {
            requireCount(command, rest, 0, "services");
            return new Arguments(registryUrl, command, null, List.of(), null, false, false, 0);
        }
        if (rest.isEmpty()) {
            throw AdminException.refused(command + ": no service (expected: " + usage(command) + ")");
        }
        String service = rest.get(0);
        if (!SERVICE.matcher(service).matches()) {
            throw AdminException.refused(command + " service: " + service + " (expected: an interface name such as com.example.Greeter)");
        }
        List<String> operands = List.copyOf(rest.subList(1, rest.size()));
        switch (command) {
            case "providers", "consumers", "rules" -> requireCount(command, operands, 0, usage(command));
            case "delete-rule" -> requireCount(command, operands, 1, usage(command));
            case "override" -> {
                if (operands.isEmpty()) {
                    throw AdminException.refused("override: no key=value (expected: " + usage(command) + ")");
                }
            }
            case "route" -> {
                if (operands.isEmpty()) {
                    throw AdminException.refused("route: no rule (expected: " + usage(command) + ")");
                }
                operands = List.of(String.join(" ", operands));
            }
            default -> throw new IllegalStateException(command);
        }
        return new Arguments(registryUrl, command, service, operands, address, dryRun, force, priority == null ? 0 : priority);
    }

    /** The {@code key=value} operands of {@code override}, in order. */
    Map<String, String> parameters() {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String operand : operands) {
            int eq = operand.indexOf('=');
            if (eq <= 0 || eq == operand.length() - 1) {
                throw AdminException.refused("override: " + operand + " (expected: key=value, such as timeout=300)");
            }
            String key = operand.substring(0, eq).strip();
            if (parameters.put(key, operand.substring(eq + 1)) != null) {
                throw AdminException.refused("override: " + key + " given twice (expected: each key once)");
            }
        }
        return parameters;
    }

    private static URL registryUrl(String registry) {
        URL url;
        try {
            url = URL.valueOf(registry);
        } catch (IllegalArgumentException e) {
            throw AdminException.refused("--registry: " + e.getMessage() + " (expected: zookeeper://host:port)");
        }
        if (!"zookeeper".equals(url.getProtocol()) || url.getHost() == null || url.getHost().isEmpty()) {
            throw AdminException.refused("--registry: " + url + " (expected: zookeeper://[user:password@]host:port)");
        }
        return url;
    }

    private static int priority(String value) {
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw AdminException.refused("--priority: " + value + " (expected: an integer; higher applies first)");
        }
    }

    private static void checkOptions(String command, String address, boolean dryRun, boolean force, Integer priority) {
        if (address != null && !command.equals("override")) {
            throw AdminException.refused("--address: applies to override only (not " + command + ")");
        }
        if ((force || priority != null) && !command.equals("route")) {
            throw AdminException.refused((force ? "--force" : "--priority") + ": applies to route only (not " + command + ")");
        }
        if (dryRun && !Set.of("override", "route", "delete-rule").contains(command)) {
            throw AdminException.refused("--dry-run: applies to override, route and delete-rule only (not " + command + ")");
        }
    }

    private static void requireCount(String command, List<String> operands, int count, String usage) {
        if (operands.size() != count) {
            throw AdminException.refused(command + ": " + operands + " (expected: " + usage + ")");
        }
    }

    private static String placeholder(String option) {
        return switch (option) {
            case "--registry" -> "zookeeper://host:port";
            case "--address" -> "host:port";
            default -> "N";
        };
    }

    /** How {@code command} is written. */
    static String usage(String command) {
        return switch (command) {
            case "services" -> "services";
            case "providers", "consumers", "rules" -> command + " SERVICE";
            case "override" -> "override SERVICE [--address host:port] [--dry-run] key=value...";
            case "route" -> "route SERVICE [--dry-run] [--force] [--priority N] \"when => then\"";
            case "delete-rule" -> "delete-rule SERVICE RULE-ID [--dry-run]";
            default -> command;
        };
    }
}
