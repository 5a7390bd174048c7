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
        assertThat(options.calls()).isEqualTo(2000);
        assertThat(options.threads()).isEqualTo(8);
        assertThat(options.seed()).isEqualTo(42);
        assertThat(options.report()).isNull();
        assertThat(options.logLevel()).isNull();
        assertThat(options.help()).isFalse();
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
                "--log", "Examples:");
    }

    @Test
    void unknownOption_namesItAndListsTheOptions() {
        assertThatThrownBy(() -> PlaygroundCli.parse("--cals", "5"))
                .isInstanceOf(UsageException.class)
                .hasMessage("unknown option: --cals (expected: --url, --providers, --calls, --threads, --seed, "
                        + "--report, --log, --help; see --help)");
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
