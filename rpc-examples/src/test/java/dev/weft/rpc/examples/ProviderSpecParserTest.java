package dev.weft.rpc.examples;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProviderSpecParserTest {

    @Test
    void fullSpec_isParsedInOrder() throws UsageException {
        List<ProviderSpec> providers = ProviderSpecParser.parse(
                "a:weight=100,latency=2ms,fail=0.2; b:weight=300,latency=500us,zone=eu-west ;c");

        assertThat(providers).containsExactly(
                new ProviderSpec("a", 100, 2_000_000, 0.2, null),
                new ProviderSpec("b", 300, 500_000, 0, "eu-west"),
                new ProviderSpec("c", 100, 1_000_000, 0, null));
    }

    @Test
    void durations_acceptEveryUnit_andBareMilliseconds() throws UsageException {
        assertThat(ProviderSpecParser.parseDuration("250ns", "x")).isEqualTo(250);
        assertThat(ProviderSpecParser.parseDuration("40us", "x")).isEqualTo(40_000);
        assertThat(ProviderSpecParser.parseDuration("2ms", "x")).isEqualTo(2_000_000);
        assertThat(ProviderSpecParser.parseDuration("1.5s", "x")).isEqualTo(1_500_000_000);
        assertThat(ProviderSpecParser.parseDuration("3", "x")).isEqualTo(3_000_000);
        assertThat(ProviderSpecParser.parseDuration("0", "x")).isZero();
        assertThat(ProviderSpecParser.parseDuration("7MS", "x")).isEqualTo(7_000_000);
    }

    @Test
    void failRate_acceptsFractionOrPercent() throws UsageException {
        assertThat(ProviderSpecParser.parse("a:fail=20%").get(0).failRate()).isEqualTo(0.2);
        assertThat(ProviderSpecParser.parse("a:fail=1").get(0).failRate()).isEqualTo(1.0);
        assertThat(ProviderSpecParser.parse("a:fail=0.05").get(0).failRate()).isEqualTo(0.05);
    }

    @Test
    void down_failsEveryCall_keepingTheRest() {
        ProviderSpec spec = new ProviderSpec("a", 7, 5, 0.1, "eu");

        assertThat(spec.down()).isEqualTo(new ProviderSpec("a", 7, 5, 1.0, "eu"));
    }

    @Test
    void errors_nameTheProviderPartAndTheRule() {
        assertThatThrownBy(() -> ProviderSpecParser.parse("a:weight=-1"))
                .hasMessage("--providers weight: '-1' in 'a:weight=-1' (expected: an integer >= 0)");
        assertThatThrownBy(() -> ProviderSpecParser.parse("a:latency=fast"))
                .hasMessage("--providers latency: 'fast' in 'a:latency=fast' "
                        + "(expected: a duration up to 10s such as 250us, 2ms, 1.5s; a bare number is ms)");
        assertThatThrownBy(() -> ProviderSpecParser.parse("a:latency=11s"))
                .hasMessageStartingWith("--providers latency: '11s'");
        assertThatThrownBy(() -> ProviderSpecParser.parse("a:fail=120%"))
                .hasMessage("--providers fail: '120%' in 'a:fail=120%' (expected: a rate from 0 to 1, or 0% to 100%)");
        assertThatThrownBy(() -> ProviderSpecParser.parse("a:fail=NaN"))
                .hasMessageStartingWith("--providers fail: 'NaN'");
        assertThatThrownBy(() -> ProviderSpecParser.parse("a:weight"))
                .hasMessage("--providers: 'weight' in 'a:weight' (expected: key=value with key weight, latency, fail or zone)");
        assertThatThrownBy(() -> ProviderSpecParser.parse("a:zone=e u"))
                .hasMessageStartingWith("--providers zone: 'e u' in 'a:zone=e u'");
    }

    @Test
    void namesMustBeValidAndUnique() {
        assertThatThrownBy(() -> ProviderSpecParser.parse("a;b;A"))
                .hasMessage("--providers name: A (expected: unique provider names)");
        assertThatThrownBy(() -> ProviderSpecParser.parse("a b:weight=1"))
                .hasMessageStartingWith("--providers name: 'a b' in 'a b:weight=1' (expected: 1-32 letters");
        assertThatThrownBy(() -> ProviderSpecParser.parse(":weight=1"))
                .hasMessageStartingWith("--providers name: '' in ':weight=1'");
    }

    @Test
    void emptySpecOrEmptyProvider_isRejected() {
        assertThatThrownBy(() -> ProviderSpecParser.parse(" "))
                .hasMessageStartingWith("--providers: ' ' (expected: name[:key=value,...] separated by ';'");
        assertThatThrownBy(() -> ProviderSpecParser.parse("a;;b"))
                .hasMessage("--providers: empty provider in 'a;;b' (expected: providers separated by single ';')");
    }

    @Test
    void tooManyProviders_areRejected() {
        StringBuilder spec = new StringBuilder("p0");
        for (int i = 1; i <= ProviderSpecParser.MAX_PROVIDERS; i++) {
            spec.append(";p").append(i);
        }

        assertThatThrownBy(() -> ProviderSpecParser.parse(spec.toString()))
                .hasMessage("--providers: 65 providers (expected: at most 64)");
    }

    @Test
    void defaultProviders_matchTheIssue_fiveWithOneSlowAndOneFailing() {
        List<ProviderSpec> providers = DefaultScenarios.defaultProviders();

        assertThat(providers).hasSize(5);
        assertThat(providers).extracting(ProviderSpec::weight).containsExactly(100, 200, 100, 100, 50);
        assertThat(providers).filteredOn(p -> p.latencyNanos() == 10 * ProviderSpecParser.DEFAULT_LATENCY_NANOS)
                .hasSize(1);
        assertThat(providers).filteredOn(p -> p.failRate() == 0.2).hasSize(1);
    }
}
