package dev.weft.rpc.examples;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ResultTableTest {

    private static String lines(String... lines) {
        return String.join(System.lineSeparator(), lines) + System.lineSeparator();
    }

    @Test
    void table_hasOneRowPerScenario_urls_andTheMostFrequentFailure() {
        String table = ResultTable.render(List.of(Fixtures.failoverRandom(), Fixtures.failfastWithFailures()));

        assertThat(table).isEqualTo(lines(
                "scenario               ok   empty  mocked  failed      p50      p99  retries",
                "failover + random    1000       0       0       0   1.23ms   11.4ms       42",
                "failfast <&>          950       0       0      50    850us    1.50s        0",
                "",
                "consumer URLs:",
                "  failover + random cluster=failover&loadbalance=random",
                "  failfast <&>      cluster=failfast&x=\"q\"",
                "",
                "most frequent failure:",
                "  failfast <&>      50 x RpcException(NETWORK): simulated <network> failure & more"));
    }

    @Test
    void chart_scalesToTheBusiestProvider_andMarksFailures() {
        String chart = ProviderChart.render(Fixtures.failoverRandom());

        assertThat(chart).isEqualTo(lines(
                "failover + random",
                "  a |####################                    |    200  23.8%",
                "  b |########################################|    400  47.5%",
                "  d |####################xxxx                |    242  28.7%  (42 failed)",
                "  e |                                        |      0   0.0%"));
    }

    @Test
    void durations_pickAReadableUnit() {
        assertThat(Durations.format(999)).isEqualTo("0us");
        assertThat(Durations.format(850_000)).isEqualTo("850us");
        assertThat(Durations.format(1_234_567)).isEqualTo("1.23ms");
        assertThat(Durations.format(12_345_678)).isEqualTo("12.3ms");
        assertThat(Durations.format(2_500_000_000L)).isEqualTo("2.50s");
    }

    @Test
    void progressLine_showsShareCountsAndLabel() {
        assertThat(ProgressBar.line(250, 1000, "failfast"))
                .startsWith("[#######.......................]  25%  250/1000  failfast");
        assertThat(ProgressBar.line(2000, 1000, "x")).startsWith("[##############################] 100%  1000/1000");
    }

    @Test
    void disabledProgressBar_printsNothing() {
        var bytes = new java.io.ByteArrayOutputStream();
        ProgressBar bar = new ProgressBar(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8),
                false, 10);

        bar.advance();
        bar.draw("x");
        bar.finish();

        assertThat(bar.done()).isEqualTo(1);
        assertThat(bytes.size()).isZero();
    }
}
