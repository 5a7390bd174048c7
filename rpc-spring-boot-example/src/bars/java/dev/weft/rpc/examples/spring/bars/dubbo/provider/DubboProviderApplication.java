package dev.weft.rpc.examples.spring.bars.dubbo.provider;

import dev.weft.rpc.examples.spring.api.GreetingService;
import org.apache.dubbo.config.annotation.DubboService;
import org.apache.dubbo.config.spring.context.annotation.EnableDubbo;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The provider app of the bars on dubbo-spring-boot-starter: the same service as the Weft provider app. */
@SpringBootApplication
@EnableDubbo
public class DubboProviderApplication {

    public static void main(String[] args) {
        SpringApplication.run(DubboProviderApplication.class, args);
    }

    @DubboService
    public static class DubboGreetingService implements GreetingService {
        @Override
        public String greet(String name) {
            return "hello " + name;
        }
    }
}
