package dev.weft.rpc.examples;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the playground's command line. Options take their value as the next argument or after
 * {@code =} ({@code --calls 500} or {@code --calls=500}); {@code --url} may be repeated.
 * Stateless and thread-safe.
 */
final class PlaygroundCli {

    static final int MAX_CALLS = 10_000_000;
    static final int MAX_THREADS = 512;
    private static final Set<String> LOG_LEVELS = Set.of("off", "error", "warn", "info", "debug", "trace");
    static final long MAX_LIVE_MILLIS = 600_000;
    static final int MAX_RATE = 100_000;
    private static final Pattern SECONDS = Pattern.compile("(\\d{1,6}(?:\\.\\d{1,3})?)\\s*s?");
    private static final Pattern ENSEMBLE_MEMBER = Pattern.compile("[A-Za-z0-9.\\-]+:(\\d{1,5})");
    private static final String OPTIONS = "--url, --providers, --calls, --threads, --seed, --live, --rate, "
            + "--live-url, --zookeeper, --processes, --metrics-port, --no-tour, --report, --dashboard, --log, --help";

    static final String HELP = String.join("\n",
            "Weft playground. Two parts:",
            "  the tour: one scenario per consumer URL (every cluster strategy, the balancers, a mock during",
            "    an outage) against five providers on weft servers on 127.0.0.1, referred with url= (no",
            "    registry) through Weft: proxy -> mock -> cluster -> balancer -> filters -> Netty and back;",
            "    then async calls (CompletableFuture): many in flight from one thread, a cancel, call-timeout;",
            "  the live cluster: ZooKeeper (embedded on 127.0.0.1) and five providers on real loopback ports,",
            "    all through Weft, one consumer under load while an operator (weft-admin's commands) tags a",
            "    canary, forces a mock, raises a weight and disables a provider, one provider browns out",
            "    (20x slower, then failing), one is killed, one shut down gracefully and ZooKeeper restarts;",
            "    the timeline shows what the consumer saw after each event.",
            "",
            "Usage: java -jar weft-playground.jar [options]",
            "",
            "Live cluster options:",
            "  --live <seconds>         How long the live load runs (default "
                    + PlaygroundOptions.Live.DEFAULT_DURATION_MILLIS / 1000 + "s; at least 3s; 0 = no live run).",
            "                           The events happen at fixed shares of it.",
            "  --rate <n>               Calls per second of the live consumer (default "
                    + PlaygroundOptions.Live.DEFAULT_RATE + ").",
            "  --live-url <parameters>  The live consumer's URL parameters (default "
                    + PlaygroundOptions.Live.DEFAULT_PARAMETERS + ").",
            "  --zookeeper <host:port>  Use this ZooKeeper ensemble (comma-separated members) instead of the",
            "                           embedded one; the ZooKeeper restart is then skipped. The run writes",
            "                           only under " + Operator.SERVICE_ROOT + ":",
            "                           providers/ and consumers/ (ephemeral registrations) and",
            "                           configurators/ (the operator's rules); at the end it deletes every",
            "                           node there that it created (and /weft if it created it).",
            "  --processes              Run every provider in its own child JVM (default: in this JVM, except",
            "                           the provider that is killed, which always runs in a child JVM).",
            "  --metrics-port <port>    While the live run lasts, serve the consumer's meters (rpc-metrics-micrometer)",
            "                           as Prometheus text at http://127.0.0.1:<port>/metrics (loopback only;",
            "                           0 = a free port, printed). The timeline's meter rows read the same meters.",
            "  --no-tour                Only the live cluster.",
            "",
            "Tour options:",
            "  --url <consumer URL>     A scenario: a full URL (consumer://host/Service?cluster=failfast&...)",
            "                           or just its parameters (cluster=failfast&loadbalance=p2c). Repeat for",
            "                           several scenarios. Default: the built-in tour of every strategy.",
            "  --providers <spec>       The providers: name[:key=value,...] separated by ';'. Keys:",
            "                             weight=<int>      static weight, default 100",
            "                             latency=<time>    mean latency (250us, 2ms, 1.5s; bare number = ms),",
            "                                               each call draws uniformly from 0.5x to 1.5x; default 1ms",
            "                             fail=<rate>       share of calls to the provider that fail as in an",
            "                                               outage (network error; retried by the cluster), 0..1",
            "                                               or 0%..100%; default 0 (tour only)",
            "                             zone=<word>       the provider URL's zone key (see loadbalance=localfirst)",
            "                           Default: a:weight=100;b:weight=200;c:weight=100,latency=10ms;",
            "                                    d:weight=100,fail=0.2;e:weight=50 (all 1ms unless stated)",
            "  --calls <n>              Calls per scenario (default " + PlaygroundOptions.DEFAULT_CALLS + ").",
            "  --threads <n>            Calling threads per scenario (default " + PlaygroundOptions.DEFAULT_THREADS + ").",
            "  --seed <n>               Seed of the providers' latencies and failures (default "
                    + PlaygroundOptions.DEFAULT_SEED + ").",
            "  --report <file.html>     Also write a self-contained HTML report: the table, the live cluster's",
            "                           calls per provider per second, failures and p99 over time with the",
            "                           events marked, and the tour's charts (inline SVG, no scripts).",
            "  --dashboard <file.svg>   Also write a dashboard picture of the live run drawn from the consumer's",
            "                           meters (calls/s per provider, p99, failed calls/s; the mock, canary",
            "                           and brownout windows shaded), as docs/images/playground-dashboard.svg.",
            "  --log <level>            Weft's log level on stderr: off, error, warn, info, debug (default off).",
            "  --help                   This text.",
            "",
            "Examples:",
            "  java -jar weft-playground.jar",
            "  java -jar weft-playground.jar --report report.html",
            "  java -jar weft-playground.jar --no-tour --live 60s --rate 1000 --processes",
            "  java -jar weft-playground.jar --zookeeper 127.0.0.1:2181 --live-url 'loadbalance=p2c&retries=1'",
            "  java -jar weft-playground.jar --url 'cluster=failover&loadbalance=leastactive&retries=1'",
            "  java -jar weft-playground.jar --url 'cluster=forking&forks=3&timeout=50' --calls 500 --threads 4",
            "  java -jar weft-playground.jar --providers 'a:weight=300;b:latency=5ms;c:fail=50%' \\",
            "      --url loadbalance=roundrobin --url loadbalance=p2c",
            "  java -jar weft-playground.jar --url 'mock=force:return+offline'",
            "  java -jar weft-playground.jar --providers 'a:zone=eu;b:zone=us;c:zone=us' \\",
            "      --url 'loadbalance=localfirst&localfirst.zone=us'",
            "",
            "Output: one row per scenario (calls ok / empty / mocked / failed, p50 and p99 latency, retries),",
            "the live run as the last row, a bar chart of where the calls went ('#' answered, 'x' failed) and",
            "the live timeline. A progress bar is drawn on stderr when it is a console. Exit code 0 on",
            "success, 2 on a bad option or URL, 1 when the run failed.");

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
        PlaygroundOptions.Live defaults = PlaygroundOptions.Live.defaults();
        long liveMillis = defaults.durationMillis();
        int rate = defaults.rate();
        String zookeeper = null;
        boolean processes = false;
        String liveParameters = defaults.parameters();
        boolean tour = true;
        int metricsPort = PlaygroundOptions.Live.NO_METRICS_PORT;
        Path dashboard = null;
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
                case "--dashboard" -> dashboard = parsePath(name,
                        value != null ? value : next(args, ++i, name, "a file name such as dashboard.svg"));
                case "--live" -> liveMillis = parseSeconds(name,
                        value != null ? value : next(args, ++i, name, "a duration in seconds such as 20s"));
                case "--rate" -> rate = parseInt(name,
                        value != null ? value : next(args, ++i, name, "calls per second"), 1, MAX_RATE);
                case "--live-url" -> liveParameters = value != null ? value
                        : next(args, ++i, name, "consumer URL parameters such as loadbalance=p2c");
                case "--zookeeper" -> zookeeper = parseEnsemble(name,
                        value != null ? value : next(args, ++i, name, "host:port"));
                case "--processes" -> processes = flag(name, value);
                case "--no-tour" -> tour = !flag(name, value);
                case "--metrics-port" -> metricsPort = parseInt(name,
                        value != null ? value : next(args, ++i, name, "a port such as 9464, or 0 for a free one"), 0, 65_535);
                case "--log" -> logLevel = parseLogLevel(value != null ? value : next(args, ++i, name, "a log level"));
                default -> throw new UsageException("unknown option: " + arg + " (expected: " + OPTIONS
                        + "; see --help)");
            }
        }
        if (!tour && liveMillis == 0) {
            throw new UsageException("--no-tour with --live 0: nothing to run (expected: a live run or the tour)");
        }
        return new PlaygroundOptions(urls, providers, calls, threads, seed, report, logLevel, help,
                new PlaygroundOptions.Live(liveMillis, rate, zookeeper, processes, liveParameters, tour, metricsPort,
                        dashboard));
    }

    private static boolean flag(String option, String value) throws UsageException {
        if (value != null) {
            throw new UsageException(option + "=" + value + ": a flag takes no value (expected: " + option + ")");
        }
        return true;
    }

    /** {@code 20}, {@code 20s}, {@code 4.5s}: whole milliseconds, 0 or from 3 s to 600 s. */
    static long parseSeconds(String option, String value) throws UsageException {
        Matcher matcher = SECONDS.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (matcher.matches()) {
            long millis = Math.round(Double.parseDouble(matcher.group(1)) * 1000);
            if (millis == 0 || (millis >= 3000 && millis <= MAX_LIVE_MILLIS)) {
                return millis;
            }
        }
        throw new UsageException(option + ": '" + value + "' (expected: seconds such as 20 or 4.5s, 0 or from 3s to "
                + MAX_LIVE_MILLIS / 1000 + "s)");
    }

    /** {@code host:port[,host:port...]}, each port from 1 to 65535. */
    static String parseEnsemble(String option, String value) throws UsageException {
        String trimmed = value.trim();
        for (String member : trimmed.split(",", -1)) {
            Matcher matcher = ENSEMBLE_MEMBER.matcher(member);
            if (!matcher.matches() || Integer.parseInt(matcher.group(1)) < 1
                    || Integer.parseInt(matcher.group(1)) > 65535) {
                throw new UsageException(option + ": '" + member + "' in '" + value
                        + "' (expected: host:port with a port from 1 to 65535, members separated by ',')");
            }
        }
        return trimmed;
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
