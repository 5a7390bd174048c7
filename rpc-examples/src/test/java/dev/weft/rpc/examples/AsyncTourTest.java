package dev.weft.rpc.examples;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The tour's async scenario on real weft providers on loopback. */
class AsyncTourTest {

    @Test
    void oneCallerThread_keepsEveryCallInFlight_cancelsOne_andBoundsTheLateOneByCallTimeout() throws Exception {
        AsyncTour.Report report;
        try (AsyncTour tour = AsyncTour.start(DefaultScenarios.defaultProviders())) {
            report = tour.run();
        }

        // smooth round robin from one thread over weights 100:200:100:100:50 picks 200, 400, 200, 200, 100
        // first attempts; on a loaded machine an attempt may fail and be retried elsewhere (retries=2)
        Map<String, Long> share = Map.of("a", 200L, "b", 400L, "c", 200L, "d", 200L, "e", 100L);
        assertThat(report.answeredBy().keySet()).containsExactlyInAnyOrderElementsOf(share.keySet());
        share.forEach((provider, n) -> assertThat(report.answeredBy().get(provider)).as("answers of %s", provider)
                .isBetween(n - 3, n + 3));
        assertThat(report.answeredBy().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(AsyncTour.CALLS);
        assertThat(report.failed()).isZero();
        assertThat(report.mostHeld()).as("calls one provider held at once with %d threads", AsyncTour.PROVIDER_THREADS)
                .isGreaterThan(AsyncTour.PROVIDER_THREADS);
        assertThat(report.cancelledAtCaller()).isTrue();
        assertThat(report.cancelledAtProvider()).as("the cancel reached the provider's future").isTrue();
        assertThat(report.cancelRuns()).as("a cancelled call is not retried (retries=3)").isEqualTo(1);
        assertThat(report.timeoutFailure()).isEqualTo("RpcException(TIMEOUT)");
        assertThat(report.timeoutAttempts()).as("attempts of 300 ms within a 500 ms call budget").isEqualTo(2);
        assertThat(report.timeoutMillis()).as("one budget over all attempts").isGreaterThanOrEqualTo(450).isLessThan(2_000);
        assertThat(report.render(java.util.List.of("a", "b", "c", "d", "e")))
                .containsPattern("answered 1100 \\(a \\d+, b \\d+, c \\d+, d \\d+, e \\d+\\), failed 0")
                .contains("RpcException(TIMEOUT) after " + report.timeoutMillis() + " ms, 2 attempt(s)");
    }
}
