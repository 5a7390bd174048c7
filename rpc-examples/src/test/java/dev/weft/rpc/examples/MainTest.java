package dev.weft.rpc.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The playground end to end, through the real Weft modules, with few calls. */
class MainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void help_printsTheOptions_andExitsZero() {
        assertThat(run("--help")).isZero();
        assertThat(out()).isEqualTo(PlaygroundCli.HELP + System.lineSeparator());
        assertThat(err()).isEmpty();
    }

    @Test
    void badOption_isOneLineOnStderr_exitTwo() {
        assertThat(run("--threads", "0")).isEqualTo(2);
        assertThat(err()).isEqualTo("error: --threads: '0' (expected: an integer from 1 to 512)" + System.lineSeparator());
        assertThat(out()).isEmpty();
    }

    @Test
    void badUrl_isOneLineOnStderr_exitTwo() {
        assertThat(run("--url", "consumer://host:99999/x")).isEqualTo(2);
        assertThat(err()).startsWith("error: --url: URL: consumer://host:99999/x (").doesNotContain("\tat ");
        assertThat(err().lines().count()).isEqualTo(1);
    }

    @Test
    void unknownStrategy_namesTheKeyAndTheAvailableNames() {
        assertThat(run("--url", "cluster=failfast&loadbalance=randon", "--calls", "5", "--live", "0")).isEqualTo(2);
        assertThat(err()).startsWith("error: --url loadbalance=randon: No extension 'randon' for "
                        + "dev.weft.rpc.loadbalance.LoadBalance (available: [")
                .contains("localfirst", "p2c", "did you mean 'random'?")
                .doesNotContain("\tat ");
        assertThat(err().lines().count()).isEqualTo(1);
        assertThat(out()).isEmpty();
    }

    @Test
    void unknownCluster_isRejectedBeforeAnyCall() {
        assertThat(run("--url", "cluster=failfats", "--live", "0")).isEqualTo(2);
        assertThat(err()).startsWith("error: --url cluster=failfats: No extension 'failfats' for dev.weft.rpc.cluster.Cluster")
                .contains("failover", "did you mean 'failfast'?");
    }

    @Test
    void liveRunNeedsFiveProviders_isAUsageError() {
        assertThat(run("--providers", "x;y", "--no-tour")).isEqualTo(2);
        assertThat(err()).isEqualTo("error: --providers: 2 provider(s) (expected: at least 5 for the live run, whose"
                + " events target four of them; or --live 0)" + System.lineSeparator());
    }

    @Test
    void reportInAMissingDirectory_isAUsageError() {
        assertThat(run("--report", "/no/such/dir/report.html")).isEqualTo(2);
        assertThat(err()).startsWith("error: --report: /no/such/dir/report.html (expected: a file in an existing directory");
    }

    @Test
    void shortDefaultRun_goesThroughTheWholeStack_andWritesTheReport(@TempDir Path dir) throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        Path report = dir.resolve("report.html");

        int code = run("--calls", "60", "--threads", "3", "--seed", "7", "--live", "0", "--report", report.toString());

        assertThat(err()).isEmpty();
        assertThat(code).isZero();
        String out = out();
        assertThat(out).contains("Weft playground: 11 scenarios x 60 calls, 3 threads, seed 7");
        for (String title : new String[] {"failover + random", "failover + roundrobin", "failover + leastactive",
                "failover + p2c", "failover + localfirst", "failfast", "failsafe", "failback", "forking", "broadcast",
                "failover + mock (outage)"}) {
            assertThat(out).contains(title);
        }
        String outageRow = out.lines().filter(l -> l.startsWith("failover + mock (outage)")).findFirst().orElseThrow();
        // every provider is down (each attempt fails with a network error): all 60 calls are answered
        // by the mock, after 3 attempts each (retries=2; the tour turns the retry budget off)
        assertThat(outageRow.trim().split("\\s+")).containsSubsequence("0", "0", "60", "0").endsWith("120");
        String failfastRow = out.lines().filter(l -> l.startsWith("failfast ")).findFirst().orElseThrow();
        assertThat(failfastRow.trim().split("\\s+")[7]).isEqualTo("0"); // failfast never retries
        assertThat(out).contains("where the calls went");
        // the async scenario: one caller thread, round robin over weights 100:200:100:100:50
        assertThat(out).contains("async calls (CompletableFuture<String> greet, one caller thread):")
                .containsPattern("answered 1100 \\(a \\d+, b \\d+, c \\d+, d \\d+, e \\d+\\), failed 0")
                .contains(
                        "cancel(true) cancelled the caller's future; the provider's future cancelled too; runs of the call: 1")
                .containsPattern("retries=2&timeout=300&call-timeout=500: RpcException\\(TIMEOUT\\) after \\d+ ms, 2 attempt\\(s\\)");
        String html = Files.readString(report);
        assertThat(html).contains("<table id=\"results\">", "failover + mock (outage)", "<svg");

        // no thread started by the run survives it (a terminated pool's worker may take a moment to exit)
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (!before.contains(thread)) {
                thread.join(5_000);
            }
        }
        Set<String> leftover = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t.isAlive())
                .map(Thread::getName)
                .collect(Collectors.toSet());
        assertThat(leftover).isEmpty();
    }

    @Test
    void shortLiveRun_showsEveryEvent_withTheMockSeen_andNothingOnStderr(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("live.html");

        int code = run("--no-tour", "--live", "8s", "--rate", "80", "--threads", "2", "--report", report.toString());

        assertThat(err()).isEmpty();
        assertThat(code).isZero();
        String out = out();
        assertThat(out).contains("Weft playground: 8 s live cluster, 2 threads, seed 42", "live cluster (ZooKeeper)",
                "live cluster timeline (embedded ZooKeeper, the killed provider in its own JVM, 80 calls/s)",
                "override: greet.mock=force:return degraded", "provider b: override: weight=600",
                "provider c: override: disabled=true", "provider d: killed (no graceful shutdown)",
                "provider e: shut down gracefully", "ZooKeeper restarted", "provider e: override: tag=canary",
                "provider e: tag rule deleted", "provider c: brownout: 20x slower",
                "provider c: brownout: failing (no answer in time)", "| tagged: ", "hedges", "ejections");
        assertThat(out).doesNotContain("FAILED:");
        String liveRow = out.lines().filter(l -> l.startsWith("live cluster (ZooKeeper) ")).findFirst().orElseThrow();
        String[] cells = liveRow.substring("live cluster (ZooKeeper)".length()).trim().split("\\s+");
        assertThat(Long.parseLong(cells[0])).as("answered calls in %s", liveRow).isPositive();
        assertThat(Long.parseLong(cells[2])).as("mocked calls while the override forced the mock, in %s", liveRow)
                .isPositive();
        String html = Files.readString(report);
        assertThat(html).contains("id=\"chart-calls\"", "id=\"chart-p99\"", "<table id=\"timeline\">");
        assertThat(html.split("class=\"event-marker\"", -1)).as("11 events marked on each of the two charts")
                .hasSize(22 + 1);
    }

    @Test
    void customProvidersAndUrls_runOneScenarioPerUrl() {
        int code = run("--providers", "x:weight=300,latency=0;y:weight=100,latency=0", "--url", "loadbalance=roundrobin",
                "--url", "cluster=failfast", "--calls", "400", "--threads", "1", "--live", "0");

        assertThat(err()).isEmpty();
        assertThat(code).isZero();
        // smooth round robin with weights 300:100 on one thread is exact: 300 and 100 attempts
        assertThat(out()).containsPattern("x \\|#+\\s*\\|\\s+300 ").containsPattern("y \\|#+\\s*\\|\\s+100 ");
        assertThat(out()).contains("failover + roundrobin", "failfast");
    }
}
