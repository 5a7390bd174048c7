package dev.weft.rpc.examples.spring.bars.baseline;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The floor of the bars: the consumer app's endpoint answering by itself, with no RPC stack on
 * the class path (the same Spring Boot, Tomcat and Actuator). What the Weft and Dubbo consumer
 * apps hold and take beyond it is their RPC stack's share.
 */
@SpringBootApplication
public class BaselineConsumerApplication {

    public static void main(String[] args) {
        SpringApplication.run(BaselineConsumerApplication.class, args);
    }

    @RestController
    public static class GreetingController {

        @GetMapping("/greet")
        public String greet(@RequestParam(name = "name", defaultValue = "world") String name) {
            return "hello " + name;
        }
    }
}
