package dev.weft.rpc.admin;

import dev.weft.rpc.bootstrap.KnownKeys;
import dev.weft.rpc.bootstrap.RuleCheck;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.Categories;
import dev.weft.rpc.registry.ConditionRule;
import dev.weft.rpc.registry.Configurator;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The operator's command line, {@code java -jar weft-admin.jar --registry zookeeper://host:port
 * COMMAND ...}: lists services, providers, consumers and rules, and writes override and routing
 * rules. A rule is checked with the consumers' own checks ({@link RuleCheck}, {@link ConditionRule})
 * before the registry is contacted; the methods it names are checked against those the service's
 * providers list ({@link ServiceMethods}); then what it would change is printed, with the methods
 * it affects, then it is written ({@code --dry-run} stops before writing). See docs/operating.md.
 *
 * <p>Exit codes: 0 done; 1 refused (bad arguments, or a rule consumers would refuse or warn
 * about: nothing was written); 2 the registry could not be read or written. Each run opens its own
 * registry connection and closes it; {@link #run} may be called from several threads.
 */
public final class WeftAdmin {

    private WeftAdmin() {
    }

    /**
     * Runs the command line {@code args} and exits with its code. With the jar's slf4j-simple, only
     * warnings are logged (ZooKeeper's and Curator's errors only), unless the system properties say
     * otherwise: the command's own output is what an operator reads.
     */
    public static void main(String[] args) {
        quietLogging("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        quietLogging("org.slf4j.simpleLogger.log.org.apache.zookeeper", "error");
        quietLogging("org.slf4j.simpleLogger.log.org.apache.curator", "error");
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    private static void quietLogging(String property, String level) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, level);
        }
    }

    /**
     * Runs one command, printing its result to {@code out} and problems to {@code err}.
     *
     * @return the exit code (see the class comment)
     */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        try {
            Arguments arguments = Arguments.parse(args);
            if (arguments.command().equals(Arguments.HELP)) {
                out.print(help());
                return 0;
            }
            // Every check that needs no registry comes first: a refused rule never opens a connection.
            URL rule = switch (arguments.command()) {
                case "override" -> checkedOverride(arguments);
                case "route" -> checkedRoute(arguments);
                default -> null;
            };
            try (AdminRegistry registry = new AdminRegistry(arguments.registry())) {
                execute(arguments, rule, registry, out);
            }
            return 0;
        } catch (AdminException e) {
            err.println("weft-admin: " + e.getMessage());
            return e.exitCode();
        }
    }

    private static void execute(Arguments arguments, URL rule, AdminRegistry registry, PrintStream out) {
        String service = arguments.service();
        switch (arguments.command()) {
            case "services" -> registry.services().forEach(out::println);
            case "providers" -> registry.read(service).providers().forEach(url -> out.println(url.toFullString()));
            case "consumers" -> registry.read(service).consumers().forEach(url -> out.println(url.toFullString()));
            case "rules" -> {
                ServiceSnapshot snapshot = registry.read(service);
                Preview.rules(snapshot, methods(snapshot), out);
            }
            case "override" -> {
                ServiceSnapshot snapshot = registry.read(service);
                ServiceMethods methods = methods(snapshot);
                Configurator override = Configurator.of(rule);
                refuseUnknownMethods(arguments, methods.problems(override));
                printRule(rule, out);
                Preview.override(snapshot, override, methods, out);
                writeUnlessDryRun(arguments, rule, registry, out);
            }
            case "route" -> {
                ServiceSnapshot snapshot = registry.read(service);
                ServiceMethods methods = methods(snapshot);
                ConditionRule route = ConditionRule.of(rule);
                refuseUnknownMethods(arguments, methods.problems(route));
                printRule(rule, out);
                Preview.route(snapshot, route, methods, out);
                writeUnlessDryRun(arguments, rule, registry, out);
            }
            case "delete-rule" -> deleteRule(arguments, registry, out);
            default -> throw new IllegalStateException(arguments.command());
        }
    }

    private static ServiceMethods methods(ServiceSnapshot snapshot) {
        return ServiceMethods.of(snapshot, KnownKeys.load(WeftAdmin.class.getClassLoader()));
    }

    /** Refuses the rule when it names methods the service's providers do not list (checked once the registry is read). */
    private static void refuseUnknownMethods(Arguments arguments, List<String> problems) {
        if (!problems.isEmpty()) {
            throw AdminException.refused(arguments.command() + " of " + arguments.service() + " refused; nothing written:\n  "
                    + String.join("\n  ", problems));
        }
    }

    private static URL checkedOverride(Arguments arguments) {
        URL rule = URL.valueOf("override://" + Optional.ofNullable(arguments.address()).orElse(Configurator.ANY_HOST) + "/"
                        + arguments.service())
                .addParameter(Categories.CATEGORY_KEY, Categories.CONFIGURATORS)
                .addParameter("dynamic", "false")
                .addParameters(arguments.parameters());
        List<String> problems = RuleCheck.problems(rule, WeftAdmin.class.getClassLoader());
        if (!problems.isEmpty()) {
            throw AdminException.refused("override of " + arguments.service() + " refused; nothing written, the registry"
                    + " was not contacted:\n  " + String.join("\n  ", problems));
        }
        return rule;
    }

    private static URL checkedRoute(Arguments arguments) {
        URL rule = URL.valueOf("condition://" + Configurator.ANY_HOST + "/" + arguments.service())
                .addParameter(Categories.CATEGORY_KEY, Categories.ROUTERS)
                .addParameter("dynamic", "false")
                .addParameter(ConditionRule.FORCE_KEY, Boolean.toString(arguments.force()))
                .addParameter(ConditionRule.PRIORITY_KEY, Integer.toString(arguments.priority()))
                .addParameter(ConditionRule.RULE_KEY, arguments.operands().get(0));
        try {
            ConditionRule.of(rule);
        } catch (IllegalArgumentException e) {
            throw AdminException.refused("route of " + arguments.service() + " refused; nothing written, the registry"
                    + " was not contacted:\n  " + e.getMessage());
        }
        return rule;
    }

    private static void deleteRule(Arguments arguments, AdminRegistry registry, PrintStream out) {
        ServiceSnapshot snapshot = registry.read(arguments.service());
        String id = arguments.operands().get(0);
        List<URL> rules = Stream.concat(snapshot.overrides().stream(), snapshot.routers().stream()).toList();
        List<URL> matching = rules.stream().filter(url -> ConditionRule.id(url).equals(id)).toList();
        if (matching.isEmpty()) {
            List<String> ids = new ArrayList<>();
            rules.forEach(url -> ids.add(ConditionRule.id(url)));
            throw AdminException.refused("delete-rule: " + id + " (expected: the id of a rule of " + arguments.service()
                    + ", as 'rules' shows it: " + (ids.isEmpty() ? "it has none" : ids) + ")");
        }
        URL rule = matching.get(0);
        printRule(rule, out);
        out.println("deleting it restores what it changed on the consumers it applies to");
        if (arguments.dryRun()) {
            out.println("--dry-run: nothing deleted");
            return;
        }
        registry.delete(rule);
        if (registry.read(arguments.service()).overrides().contains(rule) || registry.read(arguments.service()).routers().contains(rule)) {
            throw new AdminException(AdminException.REGISTRY, "delete-rule: the node of " + rule + " is not named as Weft names"
                    + " it (written by another tool?); delete it with that tool");
        }
        out.println("deleted " + id);
    }

    private static void printRule(URL rule, PrintStream out) {
        out.println("rule " + ConditionRule.id(rule) + ": " + rule.toFullString());
    }

    private static void writeUnlessDryRun(Arguments arguments, URL rule, AdminRegistry registry, PrintStream out) {
        if (arguments.dryRun()) {
            out.println("--dry-run: nothing written");
            return;
        }
        registry.write(rule);
        out.println("written " + ConditionRule.id(rule) + " (undo: delete-rule " + arguments.service() + " "
                + ConditionRule.id(rule) + ")");
    }

    /** The text of {@code --help}. */
    static String help() {
        StringBuilder text = new StringBuilder("""
                Usage: java -jar weft-admin.jar --registry zookeeper://[user:password@]host:port COMMAND

                Commands:
                """);
        for (String command : Arguments.COMMANDS) {
            text.append("  ").append(Arguments.usage(command)).append('\n');
        }
        text.append("""

                Rules are checked with the consumers' own checks before the registry is contacted, and
                what they change is printed before they are written (--dry-run stops there).
                Exit codes: 0 done, 1 refused (nothing written), 2 registry unreachable or refused.
                Rule formats and examples: docs/operating.md
                """);
        return text.toString();
    }
}
