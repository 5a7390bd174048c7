package dev.weft.rpc.examples.spring.provider;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The provider app: exports {@link GreetingServiceImpl} through Weft (profile {@code provider},
 * {@code application-provider.properties}) and runs the embedded ZooKeeper unless told otherwise.
 */
@SpringBootApplication
public class ProviderApplication {

    /** The profile whose properties configure this app. */
    public static final String PROFILE = "provider";

    public static void main(String[] args) {
        start(args);
    }

    /** Starts the provider app; {@code args} override its properties ({@code --server.port=0}). */
    public static ConfigurableApplicationContext start(String... args) {
        return new SpringApplicationBuilder(ProviderApplication.class).profiles(PROFILE).run(args);
    }
}
