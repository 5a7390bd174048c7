package dev.weft.rpc.examples.spring.consumer;

import dev.weft.rpc.examples.spring.api.GreetingService;
import dev.weft.rpc.spring.boot.WeftReference;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /greet?name=ada}: answered by the provider app through Weft. */
@RestController
public class GreetingController {

    @WeftReference(parameters = "loadbalance=p2c")
    private GreetingService greetings;

    @GetMapping("/greet")
    public String greet(@RequestParam(name = "name", defaultValue = "world") String name) {
        return greetings.greet(name);
    }
}
