package dev.weft.rpc.examples.extension;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.protocol.Filter;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The descriptor files as shipped in the jar: one per extension point, each line binding a class of this jar. */
class DescriptorTest {

    private static List<String> lines(Class<?> extensionPoint) throws IOException {
        String descriptor = "META-INF/rpc/" + extensionPoint.getName();
        try (InputStream in = DescriptorTest.class.getClassLoader().getResourceAsStream(descriptor)) {
            assertThat(in).as(descriptor).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(String::trim)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .toList();
        }
    }

    @Test
    void loadBalanceDescriptor_bindsLocalfirst_andListsTheWrapper() throws IOException {
        assertThat(lines(LoadBalance.class)).containsExactly(
                LocalFirstLoadBalance.NAME + "=" + LocalFirstLoadBalance.class.getName(),
                DrainingLoadBalanceWrapper.class.getName());
    }

    @Test
    void clusterDescriptor_bindsPrimarybackup() throws IOException {
        assertThat(lines(Cluster.class)).containsExactly(PrimaryBackupCluster.NAME + "=" + PrimaryBackupCluster.class.getName());
    }

    @Test
    void filterDescriptor_bindsTenant() throws IOException {
        assertThat(lines(Filter.class)).containsExactly(TenantFilter.NAME + "=" + TenantFilter.class.getName());
    }

    @Test
    void extensions_havePublicNoArgConstructors_andTheWrapperTakesTheSpiType() throws ReflectiveOperationException {
        ClassLoader loader = getClass().getClassLoader();
        assertThat(Class.forName(LocalFirstLoadBalance.class.getName(), false, loader).getConstructor().newInstance())
                .isInstanceOf(LoadBalance.class);
        assertThat(Class.forName(PrimaryBackupCluster.class.getName(), false, loader).getConstructor().newInstance())
                .isInstanceOf(Cluster.class);
        assertThat(Class.forName(TenantFilter.class.getName(), false, loader).getConstructor().newInstance())
                .isInstanceOf(Filter.class);
        assertThat(Class.forName(DrainingLoadBalanceWrapper.class.getName(), false, loader).getConstructor(LoadBalance.class))
                .isNotNull();
    }
}
