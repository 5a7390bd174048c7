package dev.weft.rpc.examples.spring.consumer;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The consumer app: a REST endpoint ({@link GreetingController}) calling the provider app through
 * Weft (profile {@code consumer}, {@code application-consumer.properties}). Start the provider
 * app first: the reference checks for a provider at start-up.
 */
@SpringBootApplication
public class ConsumerApplication {

    /** The profile whose properties configure this app. */
    public static final String PROFILE = "consumer";

    public static void main(String[] args) {
        start(args);
    }

    /** Starts the consumer app; {@code args} override its properties ({@code --server.port=0}). */
    public static ConfigurableApplicationContext start(String... args) {
        return new SpringApplicationBuilder(ConsumerApplication.class).profiles(PROFILE).run(args);
    }
}
