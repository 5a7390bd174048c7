package dev.weft.rpc.spring.boot;

import dev.weft.rpc.metrics.micrometer.WeftMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Weft's meters ({@link WeftMetrics}, names in {@code docs/observability.md}) in the application's
 * {@link MeterRegistry}: with {@code rpc-metrics-micrometer} on the class path and
 * {@code weft.metrics.enabled} not false, each {@code Weft} bean is bound to the context's
 * {@code MeterRegistry} (the primary one when there are several, as with Actuator's composite)
 * when it is created. Without a {@code MeterRegistry} bean nothing is bound.
 */
@AutoConfiguration
@ConditionalOnClass({WeftMetrics.class, MeterRegistry.class})
@ConditionalOnBooleanProperty(name = "weft.metrics.enabled", matchIfMissing = true)
public class WeftMetricsAutoConfiguration {

    /** Static: a post-processor is created before other beans. */
    @Bean
    static DirectorBinding<MeterRegistry> weftMetricsBinding(ObjectProvider<MeterRegistry> registry) {
        return new DirectorBinding<>(registry, (meters, director) -> new WeftMetrics(director).bindTo(meters));
    }
}
