package dev.weft.rpc.examples;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class TimelineTest {

    private final LiveRun.Result result = LiveFixtures.result();

    @Test
    void rows_areTheStartAndEachEvent_eachWithItsWindowUntilTheNext() {
        List<Timeline.Row> rows = Timeline.rows(result);

        assertThat(rows).hasSize(12);
        assertThat(rows.get(0).label()).isEqualTo("start: load on");
        assertThat(rows.get(0).window().fromMillis()).isZero();
        assertThat(rows.get(0).window().toMillis()).isEqualTo(500);
        assertThat(rows.get(0).window().answered().values()).containsOnly(10L);
        Timeline.Row mock = rows.get(2);
        assertThat(mock.label()).isEqualTo("override: greet.mock=force:return degraded");
        assertThat(mock.window().mocked()).isEqualTo(80);
        assertThat(mock.window().answered().values()).containsOnly(0L);
        Timeline.Row kill = rows.get(9);
        assertThat(kill.label()).isEqualTo("provider d: killed (no graceful shutdown)");
        assertThat(kill.window().failed()).isEqualTo(1);
        assertThat(kill.window().answered("d")).isZero();
        assertThat(rows.get(11).window().toMillis()).isEqualTo(LiveFixtures.DURATION_MILLIS);
    }

    @Test
    void canaryWindow_countsTheTaggedCallsApart_byTheProviderThatAnsweredThem() {
        Timeline.Row canary = Timeline.rows(result).get(1);
        Timeline.Row afterwards = Timeline.rows(result).get(4);

        assertThat(canary.label()).isEqualTo("provider e: override: tag=canary (canary: the tagged calls go here only)");
        // 0.5 s to 1.2 s: 70 calls, every fourth tagged (17), all answered by e; the rest by a to d
        assertThat(canary.window().tagged()).containsExactly(entry("a", 0L), entry("b", 0L), entry("c", 0L),
                entry("d", 0L), entry("e", 17L));
        assertThat(canary.window().answered("e")).isEqualTo(17);
        assertThat(canary.window().answered().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(70);
        assertThat(Timeline.taggedAnswers(canary.window(), LiveFixtures.PROVIDERS)).isEqualTo("e 24/s");
        assertThat(afterwards.label()).isEqualTo("provider e: tag rule deleted (back in the pool)");
        assertThat(afterwards.window().tagged().values()).filteredOn(n -> n > 0).hasSizeGreaterThan(1);
    }

    @Test
    void render_showsEveryEventWithWhatTheConsumerSaw() {
        String text = Timeline.render(result);

        assertThat(text.lines().toList()).hasSize(1 + 12 + 1);
        assertThat(text).containsPattern("1\\.2 s\\s+override: greet\\.mock=force:return degraded\\s+a\\s+0\\s+b\\s+0.*mocked  100")
                .containsPattern("6\\.2 s\\s+provider d: killed \\(no graceful shutdown\\).*failed   1")
                .containsPattern("0\\.5 s\\s+provider e: override: tag=canary .*\\| tagged: e 24/s")
                .contains("provider c: brownout: 20x slower", "provider c: brownout: failing (no answer in time)")
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
        assertThat(row.mocked()).isEqualTo(80);
        assertThat(row.failed()).isEqualTo(1);
        assertThat(row.ok()).isEqualTo(919);
        assertThat(row.providers()).extracting(ScenarioResult.ProviderTally::name).containsExactly("a", "b", "c", "d", "e");
        assertThat(row.topError().kind()).isEqualTo("RpcException(NETWORK)");
    }
}
