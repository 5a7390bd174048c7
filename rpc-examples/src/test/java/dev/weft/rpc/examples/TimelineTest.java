package dev.weft.rpc.examples;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TimelineTest {

    private final LiveRun.Result result = LiveFixtures.result();

    @Test
    void rows_areTheStartAndEachEvent_eachWithItsWindowUntilTheNext() {
        List<Timeline.Row> rows = Timeline.rows(result);

        assertThat(rows).hasSize(8);
        assertThat(rows.get(0).label()).isEqualTo("start: load on");
        assertThat(rows.get(0).window().fromMillis()).isZero();
        assertThat(rows.get(0).window().toMillis()).isEqualTo(1000);
        assertThat(rows.get(0).window().answered().values()).containsOnly(20L);
        Timeline.Row mock = rows.get(1);
        assertThat(mock.label()).isEqualTo("override: greet.mock=force:return degraded");
        assertThat(mock.window().mocked()).isEqualTo(120);
        assertThat(mock.window().answered().values()).containsOnly(0L);
        Timeline.Row kill = rows.get(5);
        assertThat(kill.label()).isEqualTo("provider d: killed (no graceful shutdown)");
        assertThat(kill.window().failed()).isEqualTo(1);
        assertThat(kill.window().answered("d")).isZero();
        assertThat(rows.get(7).window().toMillis()).isEqualTo(LiveFixtures.DURATION_MILLIS);
    }

    @Test
    void render_showsEveryEventWithWhatTheConsumerSaw() {
        String text = Timeline.render(result);

        assertThat(text.lines().toList()).hasSize(1 + 8 + 1);
        assertThat(text).containsPattern("1\\.0 s\\s+override: greet\\.mock=force:return degraded\\s+a\\s+0\\s+b\\s+0.*mocked  100")
                .containsPattern("5\\.6 s\\s+provider d: killed \\(no graceful shutdown\\).*failed   1")
                .contains("ZooKeeper restarted", "provider e: shut down gracefully", "provider c: override: disabled=true")
                .contains("failed calls by kind: [RpcException(NETWORK)]");
    }

    @Test
    void anEventThatFailedToApply_saysSo() {
        LiveRun.Applied failed = new LiveRun.Applied(new LiveEvent(100, LiveEvent.Kind.ZOOKEEPER_RESTART, null), 100,
                "java.lang.IllegalStateException: boom");
        assertThat(new Timeline.Row(failed, result.series().window(100, 200)).label())
                .isEqualTo("ZooKeeper restarted FAILED: java.lang.IllegalStateException: boom");
    }

    @Test
    void summary_isOneTableRow_withAnswersPerProvider() {
        ScenarioResult row = Timeline.summary("live", "loadbalance=roundrobin", result);

        assertThat(row.calls()).isEqualTo(1000);
        assertThat(row.mocked()).isEqualTo(120);
        assertThat(row.failed()).isEqualTo(1);
        assertThat(row.ok()).isEqualTo(879);
        assertThat(row.providers()).extracting(ScenarioResult.ProviderTally::name).containsExactly("a", "b", "c", "d", "e");
        assertThat(row.topError().kind()).isEqualTo("RpcException(NETWORK)");
    }
}
