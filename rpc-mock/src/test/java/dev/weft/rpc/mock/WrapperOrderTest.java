package dev.weft.rpc.mock;

import com.acme.weft.AuditClusterWrapper;
import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.spi.ExtensionDirector;
import org.acme.weft.MetricsClusterWrapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a third-party Cluster wrapper lands relative to the mock wrapper depends on its
 * {@code @Wrapper} order, not on whether its package sorts before or after {@code dev.weft}.
 */
class WrapperOrderTest {

    @TempDir
    Path root;

    @Test
    void thirdPartyWrappersWithTheDefaultOrder_bothWrapTheMockWrapper_whateverTheirPackage() throws Exception {
        Path descriptor = root.resolve("META-INF/rpc/" + Cluster.class.getName());
        Files.createDirectories(descriptor.getParent());
        Files.writeString(descriptor, MetricsClusterWrapper.class.getName() + "\n" + AuditClusterWrapper.class.getName() + "\n");
        try (URLClassLoader loader = new URLClassLoader(new java.net.URL[]{root.toUri().toURL()}, getClass().getClassLoader());
             ExtensionDirector director = new ExtensionDirector(loader)) {
            Cluster outermost = director.getExtensionLoader(Cluster.class).getExtension("failover");

            assertThat(outermost).isInstanceOf(AuditClusterWrapper.class); // equal orders: by class name
            Cluster second = ((AuditClusterWrapper) outermost).delegate();
            assertThat(second).isInstanceOf(MetricsClusterWrapper.class);
            Cluster third = ((MetricsClusterWrapper) second).delegate();
            assertThat(third).isInstanceOf(MockClusterWrapper.class);
            assertThat(((MockClusterWrapper) third).getCluster().getClass().getSimpleName()).isEqualTo("FailoverCluster");
        }
    }
}
