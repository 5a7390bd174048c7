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

        // smooth round robin from one thread over weights 100:200:100:100:50 splits 1100 calls exactly
        assertThat(report.answeredBy()).isEqualTo(Map.of("a", 200L, "b", 400L, "c", 200L, "d", 200L, "e", 100L));
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
                .contains("answered 1100 (a 200, b 400, c 200, d 200, e 100), failed 0")
                .contains("RpcException(TIMEOUT) after " + report.timeoutMillis() + " ms, 2 attempt(s)");
    }
}
