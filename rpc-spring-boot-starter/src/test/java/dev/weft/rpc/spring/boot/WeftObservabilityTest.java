package dev.weft.rpc.spring.boot;

import dev.weft.rpc.metrics.micrometer.WeftMetrics;
import dev.weft.rpc.tracing.opentelemetry.WeftTelemetry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Metrics and tracing bound by the starter: a call through a {@code @WeftReference} from a
 * consumer context to a provider context (real sockets on loopback, embedded ZooKeeper) is
 * measured in each context's {@code MeterRegistry} and traced through each context's
 * {@code OpenTelemetry}; without those beans, with the switches off, or without the modules'
 * jars, nothing is bound and start-up works.
 */
class WeftObservabilityTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private static TestZooKeeper zooKeeper;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zooKeeper = new TestZooKeeper();
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zooKeeper.close();
    }

    private static ApplicationContextRunner runner() {
        return WeftAutoConfigurationTest.runner(zooKeeper)
                .withConfiguration(AutoConfigurations.of(WeftMetricsAutoConfiguration.class, WeftTracingAutoConfiguration.class));
    }

    /** Set by the POM's surefire runs: the Micrometer version each run puts on the class path. */
    private static final String MICROMETER_VERSION_PROPERTY = "test.micrometer.version";

    /**
     * The Micrometer these tests run on: Maven runs them twice, on the Micrometer Weft is built
     * with and on the one Spring Boot's BOM manages (the POM sets {@value #MICROMETER_VERSION_PROPERTY}
     * for each run), so a Boot application's Micrometer is tested as well.
     */
    @Test
    void micrometerJars_areTheVersionThisRunIsFor() {
        String core = MeterRegistry.class.getPackage().getImplementationVersion();
        assertThat(io.micrometer.observation.Observation.class.getPackage().getImplementationVersion()).isEqualTo(core);
        assertThat(io.micrometer.common.KeyValue.class.getPackage().getImplementationVersion()).isEqualTo(core);
        String expected = System.getProperty(MICROMETER_VERSION_PROPERTY);
        if (expected != null) {
            assertThat(core).isEqualTo(expected);
        }
    }

    @Test
    void autoConfigurations_areRegisteredForSpringBoot() {
        assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).getCandidates())
                .contains(WeftMetricsAutoConfiguration.class.getName(), WeftTracingAutoConfiguration.class.getName());
    }

    @Test
    void withAMeterRegistryBean_aReferenceCall_isMeasuredOnTheClientAndTheServer() {
        runner().withUserConfiguration(Services.PlainGreeter.class, Meters.class).run(provider ->
                runner().withUserConfiguration(Services.Caller.class, Meters.class).run(consumer -> {
                    assertThat(consumer).hasNotFailed();

                    assertThat(consumer.getBean(Services.Caller.class).greeter.greet("ada")).isEqualTo("hello ada");

                    MeterRegistry clientMeters = consumer.getBean(MeterRegistry.class);
                    MeterRegistry serverMeters = provider.getBean(MeterRegistry.class);
                    assertThat(eventually(() -> count(clientMeters, "rpc.client.call.duration"), 1L)).isEqualTo(1L);
                    assertThat(eventually(() -> count(serverMeters, "rpc.server.call.duration"), 1L)).isEqualTo(1L);
                    assertThat(clientMeters.find("rpc.client.call.duration").tag("outcome", "ok").timer()).isNotNull();
                    assertThat(count(clientMeters, "rpc.server.call.duration")).as("the consumer serves nothing").isZero();
                    assertThat(count(serverMeters, "rpc.client.call.duration")).as("the provider calls nothing").isZero();
                }));
    }

    @Test
    void withSeveralMeterRegistries_thePrimaryOneIsBound() {
        runner().withUserConfiguration(Services.PlainGreeter.class, TwoMeterRegistries.class).run(provider -> {
            assertThat(provider).hasNotFailed();
            runner().withUserConfiguration(Services.Caller.class).run(consumer ->
                    assertThat(consumer.getBean(Services.Caller.class).greeter.greet("ada")).isEqualTo("hello ada"));

            MeterRegistry primary = provider.getBean("primaryMeters", MeterRegistry.class);
            MeterRegistry other = provider.getBean("otherMeters", MeterRegistry.class);
            assertThat(eventually(() -> count(primary, "rpc.server.call.duration"), 1L)).isEqualTo(1L);
            assertThat(other.getMeters()).isEmpty();
        });
    }

    @Test
    void withAnOpenTelemetryBean_aReferenceCall_givesClientAndServerSpansInOneTrace() {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        try (OpenTelemetrySdk openTelemetry = openTelemetry(exporter)) {
            runner().withUserConfiguration(Services.PlainGreeter.class).withBean(OpenTelemetry.class, () -> openTelemetry)
                    .run(provider -> runner().withUserConfiguration(Services.Caller.class)
                            .withBean(OpenTelemetry.class, () -> openTelemetry)
                            .run(consumer -> {
                                assertThat(consumer.getBean(Services.Caller.class).greeter.greet("ada")).isEqualTo("hello ada");

                                List<SpanData> spans = eventually(() -> greetSpans(exporter), 3);
                                assertThat(spans).extracting(SpanData::getKind)
                                        .containsExactlyInAnyOrder(SpanKind.CLIENT, SpanKind.CLIENT, SpanKind.SERVER);
                                assertThat(spans).extracting(SpanData::getTraceId).containsOnly(spans.get(0).getTraceId());
                                SpanData server = spans.stream().filter(s -> s.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
                                assertThat(server.getParentSpanContext().isRemote()).isTrue();
                                assertThat(spans).extracting(SpanData::getSpanId).contains(server.getParentSpanId());
                            }));
        }
    }

    @Test
    void withoutTheBeans_nothingIsBound_andCallsWork() {
        runner().withUserConfiguration(Services.PlainGreeter.class).run(provider ->
                runner().withUserConfiguration(Services.Caller.class).run(consumer -> {
                    assertThat(consumer).hasNotFailed().hasBean("weftMetricsBinding").hasBean("weftTracingBinding")
                            .doesNotHaveBean(MeterRegistry.class).doesNotHaveBean(OpenTelemetry.class);
                    assertThat(consumer.getBean(Services.Caller.class).greeter.greet("ada")).isEqualTo("hello ada");
                }));
    }

    @Test
    void switchedOff_theBeansAreLeftAlone() {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        try (OpenTelemetrySdk openTelemetry = openTelemetry(exporter)) {
            runner().withUserConfiguration(Services.PlainGreeter.class, Meters.class)
                    .withBean(OpenTelemetry.class, () -> openTelemetry)
                    .withPropertyValues("weft.metrics.enabled=false", "weft.tracing.enabled=false")
                    .run(provider -> {
                        assertThat(provider).hasNotFailed().doesNotHaveBean("weftMetricsBinding")
                                .doesNotHaveBean("weftTracingBinding");
                        runner().withUserConfiguration(Services.Caller.class).run(consumer ->
                                assertThat(consumer.getBean(Services.Caller.class).greeter.greet("ada")).isEqualTo("hello ada"));

                        assertThat(provider.getBean(MeterRegistry.class).getMeters()).isEmpty();
                        assertThat(exporter.getFinishedSpanItems()).isEmpty();
                    });
        }
    }

    @Test
    void withoutTheModules_theAutoConfigurationsBackOff() {
        runner().withClassLoader(new FilteredClassLoader(WeftMetrics.class, WeftTelemetry.class))
                .withUserConfiguration(Meters.class)
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(dev.weft.rpc.bootstrap.Weft.class)
                        .doesNotHaveBean("weftMetricsBinding").doesNotHaveBean("weftTracingBinding"));
    }

    @Test
    void aSwitchThatIsNotABoolean_failsStartUp_namingTheProperty() {
        runner().withPropertyValues("weft.metrics.enabled=yes please").run(context ->
                assertThat(context).hasFailed().getFailure().rootCause().hasMessageContaining("yes please"));
    }

    private static OpenTelemetrySdk openTelemetry(InMemorySpanExporter exporter) {
        return OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
    }

    private static List<SpanData> greetSpans(InMemorySpanExporter exporter) {
        return exporter.getFinishedSpanItems().stream()
                .filter(span -> span.getName().equals(Greeter.class.getName() + "/greet"))
                .toList();
    }

    private static long count(MeterRegistry registry, String name) {
        return registry.find(name).tag("rpc.service", Greeter.class.getName()).tag("rpc.method", "greet")
                .timers().stream().mapToLong(Timer::count).sum();
    }

    /** Polls until {@code value} reaches {@code expected} (a span or a served call ends just after the answer), at most {@link #WAIT}. */
    private static <T> T eventually(Supplier<T> value, Object expected) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        T last = value.get();
        while (!matches(last, expected) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            last = value.get();
        }
        return last;
    }

    private static boolean matches(Object value, Object expected) {
        return value instanceof List<?> list ? expected.equals(list.size()) : expected.equals(value);
    }

    @Configuration(proxyBeanMethods = false)
    static class Meters {
        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoMeterRegistries {
        @Bean
        @Primary
        SimpleMeterRegistry primaryMeters() {
            return new SimpleMeterRegistry();
        }

        @Bean
        SimpleMeterRegistry otherMeters() {
            return new SimpleMeterRegistry();
        }
    }
}
