package dev.weft.rpc.spring.boot;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.common.URL;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * One {@link Weft} per application context, built from the {@code weft.*} properties
 * ({@link WeftProperties}), with {@link WeftService} beans exported by {@link WeftServiceExports}
 * and {@link WeftReference} fields injected. Wrong configuration fails start-up: an unknown
 * {@code weft.*} property, or an unknown key in {@code weft.registry}, {@code weft.provider.url}
 * or {@code weft.consumer.parameters}, is named with its value and the closest known name.
 */
@AutoConfiguration
@EnableConfigurationProperties(WeftProperties.class)
public class WeftAutoConfiguration {

    /** The application name when neither {@code weft.application} nor {@code spring.application.name} is set. */
    static final String DEFAULT_APPLICATION = "weft";

    /**
     * The application's {@code Weft}, closed when the context closes (after the beans that use its references).
     *
     * @throws IllegalArgumentException naming the property, its value and the closest known name
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public Weft weft(WeftProperties properties, Environment environment) {
        PropertyNameCheck.requireKnown(environment);
        UrlKeyCheck keys = new UrlKeyCheck(Weft.class.getClassLoader());
        keys.requireKnown("weft.provider.url", parse("weft.provider.url", properties.providerUrl()), null);
        keys.requireKnown("weft.consumer.parameters", URL.valueOf("consumer://127.0.0.1/parameters")
                .addParameters(UrlKeyCheck.parseQuery("weft.consumer.parameters", properties.getConsumer().getParameters())),
                null);
        String application = properties.getApplication() != null ? properties.getApplication()
                : environment.getProperty("spring.application.name", DEFAULT_APPLICATION);
        Weft.Builder builder = Weft.builder();
        try {
            builder.application(application);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("weft.application: " + e.getMessage(), e);
        }
        try {
            builder.host(properties.getHost());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("weft.host: " + e.getMessage(), e);
        }
        String registry = properties.getRegistry();
        if (registry != null && !registry.isBlank()) {
            keys.requireKnown("weft.registry", parse("weft.registry", registry), null);
            builder.registry(registry);
        }
        try {
            return builder.build();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("weft.registry: " + e.getMessage(), e);
        }
    }

    /** Exports the {@link WeftService} beans once the context is refreshed; unexports them first on shutdown. */
    @Bean
    @ConditionalOnMissingBean
    public WeftServiceExports weftServiceExports(Weft weft, WeftProperties properties,
                                                 ConfigurableListableBeanFactory beanFactory) {
        return new WeftServiceExports(weft, properties, beanFactory);
    }

    /** Injects {@link WeftReference} fields (static: a post-processor is created before other beans). */
    @Bean
    static WeftReferenceInjector weftReferenceInjector() {
        return new WeftReferenceInjector();
    }

    private static URL parse(String property, String url) {
        try {
            return URL.valueOf(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(property + ": " + e.getMessage(), e);
        }
    }
}
