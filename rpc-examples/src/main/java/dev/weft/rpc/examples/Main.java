package dev.weft.rpc.examples;

import dev.weft.rpc.spi.ExtensionDirector;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
            checkReportTarget(options.report());
            List<Scenario> scenarios = scenarios(options);
            long start = System.nanoTime();
            List<ScenarioResult> results = runAll(options, scenarios, err, progress);
            long elapsed = System.nanoTime() - start;
            String summary = summary(options, scenarios);
            out.println(summary);
            out.println();
            out.print(ResultTable.render(results));
            out.println();
            out.println("where the calls went (attempts per provider; '#' answered, 'x' failed):");
            out.print(ProviderChart.render(results));
            out.println();
            out.printf(Locale.ROOT, "%d calls in %.1f s%n", (long) options.calls() * scenarios.size(), elapsed / 1e9);
            if (options.report() != null) {
                writeReport(options.report(), HtmlReport.render(summary, results));
                out.println();
                out.println("report written to " + options.report().toAbsolutePath());
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
        } catch (RuntimeException | LinkageError e) {
            err.println("error: the run failed: " + e);
            return EXIT_FAILED;
        }
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
                runs.add(playground.run(scenarios.get(i), driver, progress, label));
            }
            awaitBackgroundRetries(runs);
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

    static String summary(PlaygroundOptions options, List<Scenario> scenarios) {
        List<ProviderSpec> providers = scenarios.get(0).providers();
        String described = providers.stream().map(Main::describe).collect(Collectors.joining("; "));
        return String.format(Locale.ROOT, "Weft playground: %d scenario%s x %d calls, %d thread%s, seed %d%nproviders: %s",
                scenarios.size(), scenarios.size() == 1 ? "" : "s", options.calls(), options.threads(),
                options.threads() == 1 ? "" : "s", options.seed(), described);
    }

    private static String describe(ProviderSpec p) {
        return p.name() + " weight=" + p.weight() + " latency=" + Durations.format(p.latencyNanos())
                + (p.failRate() > 0 ? String.format(Locale.ROOT, " fail=%.0f%%", p.failRate() * 100) : "")
                + (p.zone() != null ? " zone=" + p.zone() : "");
    }

    private static void checkReportTarget(Path report) throws UsageException {
        if (report == null) {
            return;
        }
        Path parent = report.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new UsageException("--report: " + report + " (expected: a file in an existing directory; no directory "
                    + parent + ")");
        }
        if (Files.isDirectory(report)) {
            throw new UsageException("--report: " + report + " (expected: a file name, found a directory)");
        }
    }

    private static void writeReport(Path report, String html) throws IOException {
        try {
            Files.writeString(report, html, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IOException("--report: cannot write " + report.toAbsolutePath() + " (" + e + ")", e);
        }
    }
}
