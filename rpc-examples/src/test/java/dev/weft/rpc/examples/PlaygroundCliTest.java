package dev.weft.rpc.examples;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlaygroundCliTest {

    @Test
    void noArguments_giveTheDefaults() throws UsageException {
        PlaygroundOptions options = PlaygroundCli.parse();

        assertThat(options.urls()).isEmpty();
        assertThat(options.defaultScenarios()).isTrue();
        assertThat(options.providers()).isNull();
        assertThat(options.calls()).isEqualTo(1000);
        assertThat(options.threads()).isEqualTo(8);
        assertThat(options.seed()).isEqualTo(42);
        assertThat(options.report()).isNull();
        assertThat(options.logLevel()).isNull();
        assertThat(options.help()).isFalse();
        assertThat(options.live()).isEqualTo(new PlaygroundOptions.Live(15_000, 400, null, false,
                "loadbalance=roundrobin&timeout=1000", true));
    }

    @Test
    void liveOptions_areRead() throws UsageException {
        PlaygroundOptions options = PlaygroundCli.parse("--live", "4.5s", "--rate=50", "--zookeeper",
                "127.0.0.1:2181,localhost:2182", "--processes", "--no-tour", "--live-url", "loadbalance=p2c");

        assertThat(options.live()).isEqualTo(new PlaygroundOptions.Live(4500, 50, "127.0.0.1:2181,localhost:2182", true,
                "loadbalance=p2c", false));
        assertThat(PlaygroundCli.parse("--live=0").live().durationMillis()).isZero();
        assertThat(PlaygroundCli.parse("--live", "30").live().durationMillis()).isEqualTo(30_000);
    }

    @Test
    void dashboard_isOffByDefault_andReadAsAPath() throws UsageException {
        assertThat(PlaygroundCli.parse().live().dashboard()).isNull();
        assertThat(PlaygroundCli.parse("--dashboard", "d.svg").live().dashboard()).isEqualTo(java.nio.file.Path.of("d.svg"));
    }

    @Test
    void metricsPort_isOffByDefault_andReadAsALoopbackPort() throws UsageException {
        assertThat(PlaygroundCli.parse().live().metricsPort()).isEqualTo(PlaygroundOptions.Live.NO_METRICS_PORT);
        assertThat(PlaygroundCli.parse("--metrics-port", "9464").live().metricsPort()).isEqualTo(9464);
        assertThat(PlaygroundCli.parse("--metrics-port=0").live().metricsPort()).isZero();
        assertThatThrownBy(() -> PlaygroundCli.parse("--metrics-port", "70000"))
                .isInstanceOf(UsageException.class).hasMessageContaining("--metrics-port");
    }

    @Test
    void badLiveOptions_areRejected_withTheRule() {
        assertThatThrownBy(() -> PlaygroundCli.parse("--live", "2s"))
                .hasMessage("--live: '2s' (expected: seconds such as 20 or 4.5s, 0 or from 3s to 600s)");
        assertThatThrownBy(() -> PlaygroundCli.parse("--live", "soon"))
                .hasMessage("--live: 'soon' (expected: seconds such as 20 or 4.5s, 0 or from 3s to 600s)");
        assertThatThrownBy(() -> PlaygroundCli.parse("--zookeeper", "127.0.0.1"))
                .hasMessage("--zookeeper: '127.0.0.1' in '127.0.0.1' (expected: host:port with a port from 1 to 65535,"
                        + " members separated by ',')");
        assertThatThrownBy(() -> PlaygroundCli.parse("--zookeeper", "a:2181,b:70000"))
                .hasMessageStartingWith("--zookeeper: 'b:70000' in 'a:2181,b:70000'");
        assertThatThrownBy(() -> PlaygroundCli.parse("--rate", "0"))
                .hasMessage("--rate: '0' (expected: an integer from 1 to 100000)");
        assertThatThrownBy(() -> PlaygroundCli.parse("--processes=yes"))
                .hasMessage("--processes=yes: a flag takes no value (expected: --processes)");
        assertThatThrownBy(() -> PlaygroundCli.parse("--no-tour", "--live", "0"))
                .hasMessage("--no-tour with --live 0: nothing to run (expected: a live run or the tour)");
    }

    @Test
    void everyOption_isRead_withSpaceOrEqualsForm() throws UsageException {
        PlaygroundOptions options = PlaygroundCli.parse("--url", "cluster=failfast", "--url=loadbalance=p2c&retries=1",
                "--providers", "a:weight=3;b", "--calls=500", "--threads", "4", "--seed=-7", "--report", "out.html",
                "--log=WARN");

        assertThat(options.urls()).containsExactly("cluster=failfast", "loadbalance=p2c&retries=1");
        assertThat(options.defaultScenarios()).isFalse();
        assertThat(options.providers()).extracting(ProviderSpec::name).containsExactly("a", "b");
        assertThat(options.calls()).isEqualTo(500);
        assertThat(options.threads()).isEqualTo(4);
        assertThat(options.seed()).isEqualTo(-7);
        assertThat(options.report()).isEqualTo(Path.of("out.html"));
        assertThat(options.logLevel()).isEqualTo("warn");
    }

    @Test
    void help_isRecognised_longAndShort() throws UsageException {
        assertThat(PlaygroundCli.parse("--help").help()).isTrue();
        assertThat(PlaygroundCli.parse("-h").help()).isTrue();
        assertThat(PlaygroundCli.HELP).contains("--url", "--providers", "--calls", "--threads", "--seed", "--report",
                "--log", "--live", "--rate", "--live-url", "--zookeeper", "--processes", "--no-tour", "Examples:");
    }

    @Test
    void unknownOption_namesItAndListsTheOptions() {
        assertThatThrownBy(() -> PlaygroundCli.parse("--cals", "5"))
                .isInstanceOf(UsageException.class)
                .hasMessage("unknown option: --cals (expected: --url, --providers, --calls, --threads, --seed, "
                        + "--live, --rate, --live-url, --zookeeper, --processes, --metrics-port, --no-tour, --report, --dashboard, --log, --help;"
                        + " see --help)");
    }

    @Test
    void missingValue_isReported_alsoWhenTheNextTokenIsAnOption() {
        assertThatThrownBy(() -> PlaygroundCli.parse("--calls"))
                .hasMessage("--calls: missing value (expected: a number of calls)");
        assertThatThrownBy(() -> PlaygroundCli.parse("--url", "--calls", "3"))
                .hasMessage("--url: missing value (expected: a consumer URL or its parameters)");
    }

    @Test
    void numbersOutOfRange_orMalformed_areRejected() {
        assertThatThrownBy(() -> PlaygroundCli.parse("--calls", "0"))
                .hasMessage("--calls: '0' (expected: an integer from 1 to 10000000)");
        assertThatThrownBy(() -> PlaygroundCli.parse("--threads", "many"))
                .hasMessage("--threads: 'many' (expected: an integer from 1 to 512)");
        assertThatThrownBy(() -> PlaygroundCli.parse("--seed", "1.5"))
                .hasMessage("--seed: '1.5' (expected: an integer)");
    }

    @Test
    void badLogLevel_andEmptyReport_areRejected() {
        assertThatThrownBy(() -> PlaygroundCli.parse("--log", "loud"))
                .hasMessage("--log: 'loud' (expected: off, error, warn, info, debug or trace)");
        assertThatThrownBy(() -> PlaygroundCli.parse("--report="))
                .hasMessage("--report: '' (expected: a file name such as report.html)");
    }

    @Test
    void badProviderSpec_surfacesTheSpecError() {
        assertThatThrownBy(() -> PlaygroundCli.parse("--providers", "a:speed=3"))
                .hasMessage("--providers key: 'speed' in 'a:speed=3' (expected: weight, latency, fail or zone)");
    }

    @Test
    void turkishLocale_doesNotChangeLogLevelMatching() throws UsageException {
        // "INFO".toLowerCase() in tr_TR gives "ınfo" (dotless i) unless Locale.ROOT is used
        assertThat(PlaygroundCli.parse("--log", "INFO").logLevel()).isEqualTo("info");
    }
}
