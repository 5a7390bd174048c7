package dev.weft.rpc.examples.spring.provider;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.Map;

/**
 * With {@code example.zookeeper.embedded=true} (the provider app's default) the provider app runs
 * an embedded ZooKeeper on 127.0.0.1:{@code example.zookeeper.port}, so the two apps need nothing
 * else. Created before the auto-configured {@code Weft} (a user bean) and so closed after it.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "example.zookeeper.embedded", havingValue = "true")
public class EmbeddedZooKeeperConfiguration {

    @Bean(destroyMethod = "close")
    public TestingServer embeddedZooKeeper(@Value("${example.zookeeper.port}") int port) throws Exception {
        return new TestingServer(new InstanceSpec(null, port, -1, -1, true, -1, -1, -1,
                Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1"), true);
    }
}
