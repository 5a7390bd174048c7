package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KnownKeysTest {

    @TempDir
    Path dir;

    private ClassLoader loaderWith(String... declarations) throws IOException {
        java.net.URL[] roots = new java.net.URL[declarations.length];
        for (int i = 0; i < declarations.length; i++) {
            Path root = dir.resolve("jar" + i);
            Path file = root.resolve(KnownKeys.RESOURCE);
            Files.createDirectories(file.getParent());
            Files.writeString(file, declarations[i]);
            roots[i] = root.toUri().toURL();
        }
        return new URLClassLoader(roots, null);
    }

    @Test
    void load_readsEveryModulesDeclarations_andKnowsMethodLevelKeys() throws IOException {
        KnownKeys keys = KnownKeys.load(loaderWith(
                "# comment\nmodule: rpc-cluster\nretries | 2 | consumer, method | extra attempts\n\n",
                "module: rpc-loadbalance\nloadbalance | `random` | consumer, method | balancer\nhash.nodes | 160 | consumer | nodes\n"));

        assertThat(keys.declared()).containsEntry("retries", "rpc-cluster")
                .containsEntry("loadbalance", "rpc-loadbalance").containsEntry("hash.nodes", "rpc-loadbalance");
        assertThat(keys.isKnown("retries")).isTrue();
        assertThat(keys.isKnown("sayHello.retries")).isTrue();
        assertThat(keys.isKnown("sayHello.hash.nodes")).isTrue();
        assertThat(keys.isKnown("hash.nodes")).isTrue();
        assertThat(keys.isKnown("retry")).isFalse();
        assertThat(keys.isKnown(".retries")).isFalse();
    }

    @Test
    void unknownParameters_nameTheClosestKnownKey() throws IOException {
        KnownKeys keys = KnownKeys.load(loaderWith(
                "module: m\nloadbalance | `random` | consumer | balancer\nretries | 2 | consumer | attempts\n"));

        URL url = URL.valueOf("consumer://127.0.0.1/S?loadbalnce=p2c&sayHello.retires=1&retries=1&zzzzzzzz=1");

        assertThat(keys.unknownParameters(url)).containsExactlyInAnyOrder(
                "loadbalnce (did you mean 'loadbalance'?)",
                "sayHello.retires (did you mean 'sayHello.retries'?)",
                "zzzzzzzz");
    }

    @Test
    void unknownParameters_ofAService_nameAMethodLevelKeyForNoMethodOfIt() throws IOException {
        KnownKeys keys = KnownKeys.load(loaderWith(
                "module: m\nretries | 2 | consumer, method | attempts\nhash.nodes | 160 | consumer, method | nodes\n"));

        URL url = URL.valueOf("consumer://127.0.0.1/S?gret.retries=1&greet.retries=1&retries=1&greet.hash.nodes=8&xyzzy.hash.nodes=8");

        assertThat(keys.unknownParameters(url, Greeter.class)).containsExactlyInAnyOrder(
                "gret.retries (no method gret in " + Greeter.class.getName() + "; did you mean 'greet.retries'?)",
                "xyzzy.hash.nodes (no method xyzzy in " + Greeter.class.getName() + "; methods: [greet])");
        assertThat(keys.unknownParameters(url)).as("without the service, any method name passes").isEmpty();
    }

    @Test
    void malformedLine_isReportedWithFileAndLine() throws IOException {
        ClassLoader loader = loaderWith("module: m\nretries | 2 | consumer\n");

        assertThatThrownBy(() -> KnownKeys.load(loader))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'retries | 2 | consumer'")
                .hasMessageContaining(KnownKeys.RESOURCE + ":2")
                .hasMessageContaining("expected: a 'module: <name>' line, then lines of key | default | where | meaning");
    }

    @Test
    void keyDeclaredByTwoModules_isRejectedNamingBoth() throws IOException {
        ClassLoader loader = loaderWith("module: a\ntimeout | 1 | consumer | x\n", "module: b\ntimeout | 2 | consumer | y\n");

        assertThatThrownBy(() -> KnownKeys.load(loader))
                .hasMessageContaining("'timeout'")
                .hasMessageContaining("by b")
                .hasMessageContaining("a declares it");
    }

    @Test
    void declarationsShippedWithWeft_areWellFormed_andCoverTheCoreKeys() {
        KnownKeys keys = KnownKeys.load(getClass().getClassLoader());

        assertThat(keys.declared()).containsKeys("cluster", "retries", "loadbalance", "weight", "mock", "proxy", "url", "check");
    }
}
