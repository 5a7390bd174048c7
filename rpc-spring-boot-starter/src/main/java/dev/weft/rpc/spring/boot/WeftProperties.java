package dev.weft.rpc.spring.boot;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;
import java.util.List;

/**
 * The {@code weft.*} properties: how the application's one {@link dev.weft.rpc.bootstrap.Weft} is
 * built and what every export and reference starts from. A {@code weft.*} property not listed in
 * {@link #NAMES} fails start-up, naming the closest one. Bound once at start-up; not thread-safe
 * while binding, read-only afterwards.
 */
@ConfigurationProperties(prefix = WeftProperties.PREFIX)
public class WeftProperties {

    /** The prefix of every property of this class. */
    public static final String PREFIX = "weft";

    /** Every property name of this class, in the canonical (kebab-case) form. */
    public static final List<String> NAMES = List.of("weft.application", "weft.registry", "weft.host",
            "weft.provider.url", "weft.consumer.parameters", "weft.shutdown-timeout", "weft.metrics.enabled",
            "weft.tracing.enabled");

    /** Application name registered with every service and reference; default: spring.application.name, else "weft". */
    private String application;

    /** Registry URL, e.g. zookeeper://127.0.0.1:2181; without one, references name their providers in url. */
    private String registry;

    /** Host the consumers register as their own address (addresses are never guessed). */
    private String host = "127.0.0.1";

    /**
     * Time exports are given on shutdown for calls already running and for consumers to close their
     * connections (the provider URL key shutdown-timeout, unless the URL sets it).
     */
    private Duration shutdownTimeout = Duration.ofSeconds(10);

    private final Provider provider = new Provider();

    private final Consumer consumer = new Consumer();

    private final Switch metrics = new Switch();

    private final Switch tracing = new Switch();

    public String getApplication() {
        return application;
    }

    public void setApplication(String application) {
        this.application = application;
    }

    public String getRegistry() {
        return registry;
    }

    public void setRegistry(String registry) {
        this.registry = registry;
    }

    public String getHost() {
        return host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
    }

    public Provider getProvider() {
        return provider;
    }

    public Consumer getConsumer() {
        return consumer;
    }

    /** {@code weft.metrics.*}: whether Weft's meters are bound to the application's MeterRegistry. */
    public Switch getMetrics() {
        return metrics;
    }

    /** {@code weft.tracing.*}: whether Weft's calls are traced with the application's OpenTelemetry. */
    public Switch getTracing() {
        return tracing;
    }

    /** The provider URL a {@code @WeftService} without its own {@code url} is exported at. */
    String providerUrl() {
        return provider.url != null ? provider.url : "weft://" + host + ":" + Provider.DEFAULT_PORT;
    }

    /** {@code weft.provider.*}. */
    public static class Provider {

        static final int DEFAULT_PORT = 20880;

        /** Provider URL of every @WeftService without its own url; default weft://${weft.host}:20880 (port 0: a free port). */
        private String url;

        public String getUrl() {
            return url;
        }

        public void setUrl(String url) {
            this.url = url;
        }
    }

    /** {@code weft.consumer.*}. */
    public static class Consumer {

        /** Consumer URL keys every reference starts from, as a query string (k=v&amp;k2=v2); a reference's own win. */
        private String parameters = "";

        public String getParameters() {
            return parameters;
        }

        public void setParameters(String parameters) {
            this.parameters = parameters;
        }
    }

    /** {@code weft.metrics.*} and {@code weft.tracing.*}. */
    public static class Switch {

        /** Whether Weft is bound to the application's MeterRegistry (weft.metrics, needs rpc-metrics-micrometer) or OpenTelemetry (weft.tracing, needs rpc-tracing-opentelemetry) bean. */
        private boolean enabled = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }
}
