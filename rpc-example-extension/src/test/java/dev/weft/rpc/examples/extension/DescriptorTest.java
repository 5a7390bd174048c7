package dev.weft.rpc.examples.extension;

import dev.weft.rpc.loadbalance.LoadBalance;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DescriptorTest {

    private static final String DESCRIPTOR = "META-INF/rpc/" + LoadBalance.class.getName();

    @Test
    void descriptor_bindsLocalfirst_toTheBalancerClass() throws IOException {
        List<String> lines;
        try (InputStream in = LocalFirstLoadBalance.class.getClassLoader().getResourceAsStream(DESCRIPTOR)) {
            assertThat(in).as(DESCRIPTOR).isNotNull();
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(String::trim)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .toList();
        }

        assertThat(lines).containsExactly(LocalFirstLoadBalance.NAME + "=" + LocalFirstLoadBalance.class.getName());
    }

    @Test
    void balancer_isALoadBalance_withAPublicNoArgConstructor() throws ReflectiveOperationException {
        Object created = Class.forName(LocalFirstLoadBalance.class.getName(), false, getClass().getClassLoader())
                .getConstructor()
                .newInstance();

        assertThat(created).isInstanceOf(LoadBalance.class);
    }
}
