package dev.weft.rpc.examples;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses the playground's command line. Options take their value as the next argument or after
 * {@code =} ({@code --calls 500} or {@code --calls=500}); {@code --url} may be repeated.
 * Stateless and thread-safe.
 */
final class PlaygroundCli {

    static final int MAX_CALLS = 10_000_000;
    static final int MAX_THREADS = 512;
    private static final Set<String> LOG_LEVELS = Set.of("off", "error", "warn", "info", "debug", "trace");
    private static final String OPTIONS = "--url, --providers, --calls, --threads, --seed, --report, --log, --help";

    static final String HELP = String.join("\n",
            "Weft playground: a cluster of simulated in-JVM providers called through the full Weft stack",
            "(proxy -> mock -> cluster -> load balancer -> providers), one scenario per consumer URL.",
            "",
            "Usage: java -jar weft-playground.jar [options]",
            "",
            "Options:",
            "  --url <consumer URL>     A scenario: a full URL (consumer://host/Service?cluster=failfast&...)",
            "                           or just its parameters (cluster=failfast&loadbalance=p2c). Repeat for",
            "                           several scenarios. Default: the built-in tour of every strategy.",
            "  --providers <spec>       The providers: name[:key=value,...] separated by ';'. Keys:",
            "                             weight=<int>      static weight, default 100",
            "                             latency=<time>    mean latency (250us, 2ms, 1.5s; bare number = ms),",
            "                                               each call draws uniformly from 0.5x to 1.5x; default 1ms",
            "                             fail=<rate>       network failure rate, 0..1 or 0%..100%; default 0",
            "                             zone=<word>       the provider URL's zone key (see loadbalance=localfirst)",
            "                           Default: a:weight=100;b:weight=200;c:weight=100,latency=10ms;",
            "                                    d:weight=100,fail=0.2;e:weight=50 (all 1ms unless stated)",
            "  --calls <n>              Calls per scenario (default " + PlaygroundOptions.DEFAULT_CALLS + ").",
            "  --threads <n>            Calling threads per scenario (default " + PlaygroundOptions.DEFAULT_THREADS + ").",
            "  --seed <n>               Seed of the simulated latencies and failures (default "
                    + PlaygroundOptions.DEFAULT_SEED + ").",
            "  --report <file.html>     Also write a self-contained HTML report with the table and SVG charts.",
            "  --log <level>            Weft's log level on stderr: off, error, warn, info, debug (default off).",
            "  --help                   This text.",
            "",
            "Examples:",
            "  java -jar weft-playground.jar",
            "  java -jar weft-playground.jar --report report.html",
            "  java -jar weft-playground.jar --url 'cluster=failover&loadbalance=leastactive&retries=1'",
            "  java -jar weft-playground.jar --url 'cluster=forking&forks=3&timeout=50' --calls 500 --threads 4",
            "  java -jar weft-playground.jar --providers 'a:weight=300;b:latency=5ms;c:fail=50%' \\",
            "      --url loadbalance=roundrobin --url loadbalance=p2c",
            "  java -jar weft-playground.jar --url 'mock=force:return+offline'",
            "  java -jar weft-playground.jar --providers 'a:zone=eu;b:zone=us;c:zone=us' \\",
            "      --url 'loadbalance=localfirst&localfirst.zone=us'",
            "",
            "Output: one row per scenario (calls ok / empty / mocked / failed, p50 and p99 latency, retries)",
            "and a bar chart of where the calls went ('#' answered, 'x' failed). Exit code 0 on success,",
            "2 on a bad option or URL.");

    private PlaygroundCli() {
    }

    /**
     * Parses {@code args}.
     *
     * @throws UsageException for an unknown option, a missing or malformed value; the message is
     *         one line naming the option and the rule
     */
    static PlaygroundOptions parse(String... args) throws UsageException {
        List<String> urls = new ArrayList<>();
        List<ProviderSpec> providers = null;
        int calls = PlaygroundOptions.DEFAULT_CALLS;
        int threads = PlaygroundOptions.DEFAULT_THREADS;
        long seed = PlaygroundOptions.DEFAULT_SEED;
        Path report = null;
        String logLevel = null;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            switch (name) {
                case "--help", "-h" -> help = true;
                case "--url" -> urls.add(value != null ? value : next(args, ++i, name, "a consumer URL or its parameters"));
                case "--providers" -> providers = ProviderSpecParser.parse(
                        value != null ? value : next(args, ++i, name, "a provider spec"));
                case "--calls" -> calls = parseInt(name,
                        value != null ? value : next(args, ++i, name, "a number of calls"), 1, MAX_CALLS);
                case "--threads" -> threads = parseInt(name,
                        value != null ? value : next(args, ++i, name, "a number of threads"), 1, MAX_THREADS);
                case "--seed" -> seed = parseLong(name, value != null ? value : next(args, ++i, name, "a number"));
                case "--report" -> report = parsePath(name,
                        value != null ? value : next(args, ++i, name, "a file name such as report.html"));
                case "--log" -> logLevel = parseLogLevel(value != null ? value : next(args, ++i, name, "a log level"));
                default -> throw new UsageException("unknown option: " + arg + " (expected: " + OPTIONS
                        + "; see --help)");
            }
        }
        return new PlaygroundOptions(urls, providers, calls, threads, seed, report, logLevel, help);
    }

    private static String next(String[] args, int index, String option, String what) throws UsageException {
        if (index >= args.length || (args[index].startsWith("--") && args[index].length() > 2)) {
            throw new UsageException(option + ": missing value (expected: " + what + ")");
        }
        return args[index];
    }

    private static int parseInt(String option, String value, int min, int max) throws UsageException {
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + ": '" + value + "' (expected: an integer from " + min + " to " + max + ")");
    }

    private static long parseLong(String option, String value) throws UsageException {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new UsageException(option + ": '" + value + "' (expected: an integer)", e);
        }
    }

    private static Path parsePath(String option, String value) throws UsageException {
        if (value.isBlank()) {
            throw new UsageException(option + ": '' (expected: a file name such as report.html)");
        }
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw new UsageException(option + ": '" + value + "' (expected: a valid file name; " + e.getReason() + ")", e);
        }
    }

    private static String parseLogLevel(String value) throws UsageException {
        String level = value.trim().toLowerCase(Locale.ROOT);
        if (!LOG_LEVELS.contains(level)) {
            throw new UsageException("--log: '" + value + "' (expected: off, error, warn, info, debug or trace)");
        }
        return level;
    }
}
