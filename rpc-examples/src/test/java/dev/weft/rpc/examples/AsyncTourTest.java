package dev.weft.rpc.examples;

import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/** The tour's async scenario on real weft providers on loopback. */
class AsyncTourTest {

    @Test
    void oneCallerThread_keepsEveryCallInFlight_cancelsOne_andBoundsTheLateOneByCallTimeout() throws Exception {
        AsyncTour.Report report;
        try (AsyncTour tour = AsyncTour.start(DefaultScenarios.defaultProviders())) {
            report = tour.run();
        }

        // round robin from one thread; an attempt refused or failed on a loaded machine is retried
        // elsewhere (retries=2), so the split is only roughly 200:400:200:200:100, but every call is answered
        assertThat(report.answeredBy().keySet()).containsExactlyInAnyOrder("a", "b", "c", "d", "e");
        assertThat(report.answeredBy().values()).allMatch(n -> n > 0);
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
