package dev.weft.rpc.benchmarks;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The floor under the observability modules' network cost does what a Weft call asks of the
 * libraries: three timers, and when tracing, three spans of one trace linked call, attempt, server.
 */
class InstrumentationFloorTest {

    private final List<SpanData> exported = new CopyOnWriteArrayList<>();

    @Test
    void metricsBinding_recordsTheThreeTimers_andNoSpan() {
        try (InstrumentationFloor floor = new InstrumentationFloor(ObservedWefts.Binding.METRICS, SpanSink.of(exported::addAll))) {
            floor.call();
            floor.call();

            for (String timer : List.of("rpc.client.call.duration", "rpc.client.attempt.duration", "rpc.server.call.duration")) {
                assertThat(floor.registry().get(timer).timer().count()).as(timer).isEqualTo(2);
            }
            assertThat(exported).isEmpty();
        }
    }

    @Test
    void bothBinding_makesOneTraceOfCallAttemptAndServer_perCall() {
        try (InstrumentationFloor floor = new InstrumentationFloor(ObservedWefts.Binding.BOTH, SpanSink.of(exported::addAll))) {
            floor.call();

            assertThat(exported).hasSize(3);
            SpanData call = exported.stream().filter(s -> s.getKind() == SpanKind.CLIENT && !s.getParentSpanContext().isValid())
                    .findFirst().orElseThrow();
            SpanData attempt = exported.stream().filter(s -> s.getKind() == SpanKind.CLIENT && s != call).findFirst().orElseThrow();
            SpanData server = exported.stream().filter(s -> s.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
            assertThat(attempt.getParentSpanId()).isEqualTo(call.getSpanId());
            assertThat(server.getParentSpanId()).as("the server span's parent came through the injected attachments")
                    .isEqualTo(attempt.getSpanId());
            assertThat(server.getParentSpanContext().isRemote()).isTrue();
            assertThat(exported).allMatch(s -> s.getTraceId().equals(call.getTraceId()));
            assertThat(floor.registry().get("rpc.server.call.duration").timer().count()).isEqualTo(1);
        }
    }
}
