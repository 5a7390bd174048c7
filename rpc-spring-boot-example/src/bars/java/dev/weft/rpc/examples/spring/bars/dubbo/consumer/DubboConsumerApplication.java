package dev.weft.rpc.examples.spring.bars.dubbo.consumer;

import dev.weft.rpc.examples.spring.api.GreetingService;
import org.apache.dubbo.config.annotation.DubboReference;
import org.apache.dubbo.config.spring.context.annotation.EnableDubbo;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The consumer app of the bars on dubbo-spring-boot-starter: the same endpoint as the Weft consumer app. */
@SpringBootApplication
@EnableDubbo
public class DubboConsumerApplication {

    public static void main(String[] args) {
        SpringApplication.run(DubboConsumerApplication.class, args);
    }

    @RestController
    public static class GreetingController {

        @DubboReference(url = "${bars.provider}", loadbalance = "random", timeout = 1000, retries = 2)
        private GreetingService greetings;

        @GetMapping("/greet")
        public String greet(@RequestParam(name = "name", defaultValue = "world") String name) {
            return greetings.greet(name);
        }
    }
}
