package dev.weft.rpc.examples;

import com.google.common.base.Ticker;
import dev.weft.rpc.protocol.filter.CallContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live cluster's canary route and brownout on real providers, a real embedded ZooKeeper and the
 * admin's own commands: a tag rule written by the admin sends the tagged calls to the canary alone
 * until it is deleted; a provider browning out is ejected once failing (failover, the live run's
 * default) and hedged around while slow ({@code cluster=hedging}), and the timeline's meter rows
 * show both.
 */
class LiveRoutingAndBrownoutTest {

    private static final long RULE_ARRIVAL_MILLIS = 10_000;
    private static final int CALLS = 40;

    /** The live consumer with hedging instead of failover: a hedge after 50 ms without an answer. */
    private static final String HEDGING = "cluster=hedging&hedge-delay=50ms&loadbalance=roundrobin&timeout=1000";

    private LiveCluster cluster;
    private final List<String> names = DefaultScenarios.defaultProviders().stream().map(ProviderSpec::name).toList();

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private void start(String consumerParameters) throws Exception {
        cluster = LiveCluster.start(DefaultScenarios.defaultProviders(), null, false, Set.of(), 42, consumerParameters);
        assertThat(cluster.warmUp(10_000)).containsExactlyInAnyOrderElementsOf(names);
    }

    private LiveRun.Result run(long durationMillis, List<LiveEvent> events) throws InterruptedException {
        ProgressBar quiet = new ProgressBar(new PrintStream(OutputStream.nullOutputStream()), false, durationMillis);
        return new LiveRun(durationMillis, 4, 200).run(cluster.consumer(), names, events, cluster::apply, quiet,
                Ticker.systemTicker(), cluster.meterSource());
    }

    @Test
    void canaryTagRule_fromTheAdmin_sendsTheTaggedCallsToTheCanaryAlone_untilDeleted() throws Exception {
        start(PlaygroundOptions.Live.DEFAULT_PARAMETERS);
        CallContext context = cluster.canary().context();

        cluster.apply(new LiveEvent(0, LiveEvent.Kind.CANARY_ON, "e"));
        assertThat(firstAnswerWithin(context, true, "e")).as("a tagged call answered by the canary").isTrue();
        assertThat(answers(context, true)).as("tagged calls while the rule is on").containsOnly("e");
        assertThat(answers(context, false)).as("untagged calls while the rule is on").doesNotContain("e")
                .hasSize(CALLS);

        cluster.apply(new LiveEvent(0, LiveEvent.Kind.CANARY_OFF, "e"));
        assertThat(firstAnswerWithin(context, false, "e")).as("an untagged call answered by e again").isTrue();
        assertThat(answers(context, true)).as("tagged calls with no canary left: every provider").contains("a", "e");
    }

    @Test
    void failingProvider_isEjectedAfterItsTimeouts_andTheCallersSeeNoFailure() throws Exception {
        start(PlaygroundOptions.Live.DEFAULT_PARAMETERS); // failover, retry budget and ejection by failures on
        List<LiveEvent> events = List.of(new LiveEvent(500, LiveEvent.Kind.BROWNOUT_SLOW, "c"),
                new LiveEvent(1_500, LiveEvent.Kind.BROWNOUT_FAIL, "c"));

        LiveRun.Result result = run(4_000, events);

        List<Timeline.MeterRow> rows = Timeline.meterRows(result);
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0).ejections() + rows.get(1).ejections()).as("ejections before c fails").isZero();
        assertThat(rows.get(2).ejections()).as("c ejected once failing").isEqualTo(1);
        assertThat(rows).allSatisfy(row -> assertThat(row.hedges()).as("failover sends no hedge").isZero());
        // each call that timed out at c was retried elsewhere within the budget
        assertThat(result.series().window(0, 4_000 + 10_000).failed()).isZero();
        TimeSeries.Point failing = result.series().window(result.events().get(1).atMillis(), 4_000);
        assertThat(failing.p99Nanos()).as("the calls that waited for c's timeout first")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(1_000));
        assertThat(Timeline.render(result)).contains("provider c: brownout: failing (no answer in time)", "ejections  1");
        assertThat(HtmlReport.render("live", List.of(Timeline.summary("live", "", result)), result))
                .contains("<th>hedges</th><th>ejections</th><th>budget refusals</th>");
    }

    @Test
    void slowProvider_isHedged_withClusterHedging() throws Exception {
        start(HEDGING);
        List<LiveEvent> events = List.of(new LiveEvent(1_000, LiveEvent.Kind.BROWNOUT_SLOW, "c"));

        LiveRun.Result result = run(2_500, events);

        List<Timeline.MeterRow> rows = Timeline.meterRows(result);
        assertThat(rows).hasSize(2);
        // before: a hedge only for a call stalled 50 ms (a loaded machine); while slow, one for about every call to c
        assertThat(rows.get(1).hedges()).as("hedges while c is 20x slower").isPositive()
                .isGreaterThan(rows.get(0).hedges());
        assertThat(result.series().window(0, 2_500 + 10_000).failed()).isZero();
    }

    /** Calls (tagged or not) until {@code provider} answers one, at most {@link #RULE_ARRIVAL_MILLIS}. */
    private boolean firstAnswerWithin(CallContext context, boolean tagged, String provider) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RULE_ARRIVAL_MILLIS);
        while (System.nanoTime() < deadline) {
            if (answers(context, tagged, 1).contains(provider)) {
                return true;
            }
            Thread.sleep(10);
        }
        return false;
    }

    private List<String> answers(CallContext context, boolean tagged) {
        return answers(context, tagged, CALLS);
    }

    /** The providers that answered {@code calls} calls, in order. */
    private List<String> answers(CallContext context, boolean tagged, int calls) {
        List<String> answered = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            String name = "routing-" + i;
            CallContext.Scope scope = tagged ? context.with(LiveRun.Canary.TAG_ATTACHMENT, LiveEvent.CANARY_TAG) : null;
            try {
                String answer = cluster.consumer().greet(name);
                assertThat(GreetingServiceImpl.isProviderAnswer(name, answer)).as("answer %s", answer).isTrue();
                answered.add(answer.substring(name.length() + 1));
            } finally {
                if (scope != null) {
                    scope.close();
                }
            }
        }
        return answered;
    }
}
