package dev.weft.rpc.examples.spring.provider;

import dev.weft.rpc.examples.spring.api.GreetingService;
import dev.weft.rpc.spring.boot.WeftService;

/** Exported at {@code weft.provider.url} once the provider app has started. */
@WeftService(parameters = "weight=${example.weight:100}")
public class GreetingServiceImpl implements GreetingService {

    @Override
    public String greet(String name) {
        return "hello " + name;
    }
}
