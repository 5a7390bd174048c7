package dev.weft.rpc.spring.boot;

import dev.weft.rpc.bootstrap.Weft;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code weft} health indicator ({@link WeftHealthIndicator}), when Actuator's health API is
 * on the class path and {@code management.health.weft.enabled} is not false.
 */
@AutoConfiguration(after = WeftAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean({Weft.class, WeftServiceExports.class})
@ConditionalOnEnabledHealthIndicator("weft")
public class WeftHealthAutoConfiguration {

    /** Named so that the health contributor is {@code weft}. */
    @Bean
    @ConditionalOnMissingBean(name = "weftHealthIndicator")
    public WeftHealthIndicator weftHealthIndicator(Weft weft, WeftServiceExports exports, WeftProperties properties) {
        return new WeftHealthIndicator(weft, exports, properties);
    }
}
