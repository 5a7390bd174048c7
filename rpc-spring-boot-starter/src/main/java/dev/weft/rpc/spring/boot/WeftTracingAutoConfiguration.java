package dev.weft.rpc.spring.boot;

import dev.weft.rpc.tracing.opentelemetry.WeftTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Weft's spans ({@link WeftTelemetry}: call, attempt and served-call spans, W3C context on the
 * wire) through the application's {@link OpenTelemetry}: with {@code rpc-tracing-opentelemetry} on
 * the class path and {@code weft.tracing.enabled} not false, {@code WeftTelemetry} is installed
 * on each {@code Weft} bean when it is created. Without an {@code OpenTelemetry} bean (or with
 * several and none primary) nothing is traced.
 */
@AutoConfiguration
@ConditionalOnClass({WeftTelemetry.class, OpenTelemetry.class})
@ConditionalOnBooleanProperty(name = "weft.tracing.enabled", matchIfMissing = true)
public class WeftTracingAutoConfiguration {

    /** Static: a post-processor is created before other beans. */
    @Bean
    static DirectorBinding<OpenTelemetry> weftTracingBinding(ObjectProvider<OpenTelemetry> openTelemetry) {
        return new DirectorBinding<>(openTelemetry,
                (telemetry, director) -> WeftTelemetry.create(telemetry).install(director));
    }
}
