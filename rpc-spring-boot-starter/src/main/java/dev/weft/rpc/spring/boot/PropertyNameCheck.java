package dev.weft.rpc.spring.boot;

import dev.weft.rpc.common.NameSuggestions;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.util.List;

/**
 * Refuses a {@code weft.*} property that {@link WeftProperties} does not have (Spring would ignore
 * it): {@code weft.regsitry: zookeeper://... from class path resource [application.properties] - 3:15
 * (expected: one of [...]; did you mean 'weft.registry'?)}. Environment variables are left out: a
 * machine may well have a {@code WEFT_...} variable meant for something else. Stateless.
 */
final class PropertyNameCheck {

    private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of(WeftProperties.PREFIX);
    /** Compared as Spring binds them: {@code weft.shutdownTimeout} and {@code weft.shutdown_timeout} are known too. */
    private static final List<ConfigurationPropertyName> KNOWN = WeftProperties.NAMES.stream()
            .map(ConfigurationPropertyName::of).toList();

    private PropertyNameCheck() {
    }

    /** @throws IllegalArgumentException naming the first unknown property, its value, where it was set and the closest name */
    static void requireKnown(Environment environment) {
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable)
                    || source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource) {
                continue;
            }
            List<ConfigurationPropertyName> unknown = iterable.filter(PREFIX::isAncestorOf).stream()
                    .filter(name -> !KNOWN.contains(name))
                    .toList();
            if (!unknown.isEmpty()) {
                ConfigurationPropertyName name = unknown.get(0);
                ConfigurationProperty property = source.getConfigurationProperty(name);
                String closest = NameSuggestions.closest(name.toString(), WeftProperties.NAMES);
                throw new IllegalArgumentException(name + ": " + (property == null ? "" : property.getValue())
                        + (property == null || property.getOrigin() == null ? "" : " from " + property.getOrigin())
                        + " (expected: a property of " + WeftProperties.NAMES
                        + (closest == null ? "" : "; did you mean '" + closest + "'?") + ")");
            }
        }
    }
}
