package dev.weft.rpc.examples;

import com.google.common.base.Ticker;
import dev.weft.rpc.spi.ExtensionDirector;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The playground's entry point: {@code java -jar weft-playground.jar [options]}; see
 * {@link PlaygroundCli#HELP}. Exit code 0 on success, 2 on a bad option or URL (one line on stderr,
 * no stack trace), 1 when the run itself failed. On success the JVM exits on its own: every
 * thread the run started is stopped when the {@link ExtensionDirector} closes.
 */
public final class Main {

    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    static final long MAX_SETTLE_MILLIS = 3000;
    static final long WARM_UP_MILLIS = 10_000;
    static final String LIVE_TITLE = "live cluster (ZooKeeper)";
    private static final String LOG_LEVEL_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";

    private Main() {
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err, System.console() != null);
        if (code != EXIT_OK) {
            System.exit(code);
        }
    }

    /**
     * Runs the playground with {@code args}, printing results to {@code out} and errors (and, when
     * {@code progress} is true, the progress bar) to {@code err}.
     *
     * @return the exit code
     */
    static int run(String[] args, PrintStream out, PrintStream err, boolean progress) {
        try {
            PlaygroundOptions options = PlaygroundCli.parse(args);
            if (options.help()) {
                out.println(PlaygroundCli.HELP);
                return EXIT_OK;
            }
            if (options.logLevel() != null) {
                System.setProperty(LOG_LEVEL_PROPERTY, options.logLevel());
            }
            checkReportTarget("--report", options.report());
            checkReportTarget("--dashboard", options.live().dashboard());
            if (options.live().dashboard() != null && options.live().durationMillis() == 0) {
                throw new UsageException("--dashboard with --live 0: the picture is of the live run (expected: a live run)");
            }
            PlaygroundOptions.Live live = options.live();
            List<ProviderSpec> providers = options.providers() != null ? options.providers()
                    : DefaultScenarios.defaultProviders();
            if (live.durationMillis() > 0 && providers.size() < 5) {
                throw new UsageException("--providers: " + providers.size() + " provider(s) (expected: at least 5 for"
                        + " the live run, whose events target four of them; or --live 0)");
            }
            List<Scenario> scenarios = live.tour() ? scenarios(options) : List.of();
            long start = System.nanoTime();
            List<ScenarioResult> results = new ArrayList<>();
            AsyncTour.Report async = null;
            List<String> asyncProviders = List.of();
            if (!scenarios.isEmpty()) {
                results.addAll(runAll(options, scenarios, err, progress));
                if (options.defaultScenarios()) {
                    try (AsyncTour tour = AsyncTour.start(providers)) {
                        async = tour.run();
                        asyncProviders = tour.providerNames();
                    }
                }
            }
            LiveRun.Result liveResult = null;
            if (live.durationMillis() > 0) {
                liveResult = runLive(options, providers, out, err, progress);
                results.add(Timeline.summary(LIVE_TITLE, live.parameters(), liveResult));
            }
            long elapsed = System.nanoTime() - start;
            String summary = summary(options, providers, scenarios.size());
            out.println(summary);
            out.println();
            out.print(ResultTable.render(results));
            out.println();
            out.println("where the calls went (attempts per provider; '#' answered, 'x' failed):");
            out.print(ProviderChart.render(results));
            if (async != null) {
                out.println();
                out.print(async.render(asyncProviders));
            }
            if (liveResult != null) {
                out.println();
                out.println("live cluster timeline (" + describeZooKeeper(live) + "):");
                out.print(Timeline.render(liveResult));
            }
            out.println();
            long calls = results.stream().mapToLong(ScenarioResult::calls).sum();
            out.printf(Locale.ROOT, "%d calls in %.1f s%n", calls, elapsed / 1e9);
            if (options.report() != null) {
                writeReport("--report", options.report(), HtmlReport.render(summary, results, liveResult));
                out.println();
                out.println("report written to " + options.report().toAbsolutePath());
            }
            if (liveResult != null && live.dashboard() != null) {
                writeReport("--dashboard", live.dashboard(), DashboardSvg.render(liveResult));
                out.println("dashboard picture written to " + live.dashboard().toAbsolutePath());
            }
            out.flush();
            return EXIT_OK;
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            return EXIT_USAGE;
        } catch (IOException e) {
            err.println("error: " + e.getMessage());
            return EXIT_FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("error: interrupted");
            return EXIT_FAILED;
        } catch (Exception | LinkageError e) {
            err.println("error: the run failed: " + e);
            return EXIT_FAILED;
        }
    }

    private static LiveRun.Result runLive(PlaygroundOptions options, List<ProviderSpec> providers, PrintStream out, PrintStream err,
                                          boolean showProgress) throws Exception {
        PlaygroundOptions.Live live = options.live();
        List<String> names = providers.stream().map(ProviderSpec::name).toList();
        List<LiveEvent> events = EventSchedule.standard(live.durationMillis(), names, live.zookeeper() == null);
        Set<String> killable = events.stream().filter(e -> e.kind() == LiveEvent.Kind.KILL)
                .map(LiveEvent::provider).collect(Collectors.toSet());
        ProgressBar progress = new ProgressBar(err, showProgress, live.durationMillis());
        progress.drawAt(0, "live cluster: starting ZooKeeper and " + providers.size() + " providers");
        try (LiveCluster cluster = LiveCluster.start(providers, live.zookeeper(), live.processes(), killable,
                options.seed(), live.parameters())) {
            progress.drawAt(0, "live cluster: warming up");
            cluster.warmUp(WARM_UP_MILLIS);
            try (MetricsEndpoint endpoint = live.metricsPort() == PlaygroundOptions.Live.NO_METRICS_PORT ? null
                    : MetricsEndpoint.start(live.metricsPort(), cluster.meters()::scrape)) {
                if (endpoint != null) {
                    out.println("consumer meters (Prometheus text, while the live run lasts): " + endpoint.url());
                    out.flush();
                }
                return new LiveRun(live.durationMillis(), options.threads(), live.rate(), cluster.canary())
                        .run(cluster.consumer(), names, events, cluster::apply, progress, Ticker.systemTicker(),
                                cluster.meterSource());
            }
        } finally {
            progress.finish();
        }
    }

    private static String describeZooKeeper(PlaygroundOptions.Live live) {
        return (live.zookeeper() == null ? "embedded ZooKeeper" : "ZooKeeper " + live.zookeeper())
                + (live.processes() ? ", every provider in its own JVM" : ", the killed provider in its own JVM")
                + ", " + live.rate() + " calls/s";
    }

    private static List<ScenarioResult> runAll(PlaygroundOptions options, List<Scenario> scenarios, PrintStream err,
                                               boolean showProgress) throws UsageException, InterruptedException {
        ProgressBar progress = new ProgressBar(err, showProgress, (long) options.calls() * scenarios.size());
        LoadDriver driver = new LoadDriver(options.calls(), options.threads());
        List<ScenarioRun> runs = new ArrayList<>();
        try (ExtensionDirector director = new ExtensionDirector(Main.class.getClassLoader());
             Playground playground = new Playground(director, options.seed())) {
            for (Scenario scenario : scenarios) {
                playground.validate(scenario.consumerUrl());
            }
            for (int i = 0; i < scenarios.size(); i++) {
                String label = "(" + (i + 1) + "/" + scenarios.size() + ") " + scenarios.get(i).title();
                ScenarioRun run = playground.run(scenarios.get(i), driver, progress, label);
                awaitBackgroundRetries(List.of(run)); // the providers count the next scenario's calls apart
                runs.add(run);
            }
            List<ScenarioResult> results = new ArrayList<>();
            for (ScenarioRun run : runs) {
                results.add(run.result());
            }
            return results;
        } finally {
            progress.finish();
        }
    }

    /**
     * Lets failback retries queued by the scenarios run before counting: waits until provider
     * attempts stop changing for one retry period (at least 250 ms), at most
     * {@link #MAX_SETTLE_MILLIS} in all. Retries still queued after that are cancelled at close.
     */
    private static void awaitBackgroundRetries(List<ScenarioRun> runs) throws InterruptedException {
        long period = runs.stream().mapToLong(ScenarioRun::backgroundPeriodMillis).max().orElse(0);
        if (period == 0) {
            return;
        }
        long step = Math.max(250, period);
        long deadline = System.nanoTime() + MAX_SETTLE_MILLIS * 1_000_000;
        long last = -1;
        for (long now = total(runs); now != last && System.nanoTime() < deadline; now = total(runs)) {
            last = now;
            Thread.sleep(Math.min(step, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
        }
    }

    private static long total(List<ScenarioRun> runs) {
        return runs.stream().mapToLong(ScenarioRun::attempts).sum();
    }

    static List<Scenario> scenarios(PlaygroundOptions options) throws UsageException {
        List<ProviderSpec> providers = options.providers() != null ? options.providers()
                : DefaultScenarios.defaultProviders();
        if (options.defaultScenarios()) {
            return DefaultScenarios.create(providers);
        }
        List<Scenario> scenarios = new ArrayList<>();
        List<String> titles = new ArrayList<>();
        for (String text : options.urls()) {
            var url = ConsumerUrls.parse(text);
            String title = Scenario.titleOf(url);
            String unique = title;
            for (int n = 2; titles.contains(unique); n++) {
                unique = title + " #" + n;
            }
            titles.add(unique);
            scenarios.add(new Scenario(unique, url, providers));
        }
        return scenarios;
    }

    static String summary(PlaygroundOptions options, List<ProviderSpec> providers, int scenarios) {
        String described = providers.stream().map(Main::describe).collect(Collectors.joining("; "));
        String live = options.live().durationMillis() == 0 ? "" : String.format(Locale.ROOT,
                "%s%.0f s live cluster", scenarios == 0 ? "" : " + ", options.live().durationMillis() / 1000.0);
        String tour = scenarios == 0 ? "" : String.format(Locale.ROOT, "%d scenario%s x %d calls", scenarios,
                scenarios == 1 ? "" : "s", options.calls());
        return String.format(Locale.ROOT, "Weft playground: %s%s, %d thread%s, seed %d%nproviders: %s",
                tour, live, options.threads(), options.threads() == 1 ? "" : "s", options.seed(), described);
    }

    private static String describe(ProviderSpec p) {
        return p.name() + " weight=" + p.weight() + " latency=" + Durations.format(p.latencyNanos())
                + (p.failRate() > 0 ? String.format(Locale.ROOT, " fail=%.0f%%", p.failRate() * 100) : "")
                + (p.zone() != null ? " zone=" + p.zone() : "");
    }

    private static void checkReportTarget(String option, Path report) throws UsageException {
        if (report == null) {
            return;
        }
        Path parent = report.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new UsageException(option + ": " + report + " (expected: a file in an existing directory; no directory "
                    + parent + ")");
        }
        if (Files.isDirectory(report)) {
            throw new UsageException(option + ": " + report + " (expected: a file name, found a directory)");
        }
    }

    private static void writeReport(String option, Path report, String text) throws IOException {
        try {
            Files.writeString(report, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IOException(option + ": cannot write " + report.toAbsolutePath() + " (" + e + ")", e);
        }
    }
}
