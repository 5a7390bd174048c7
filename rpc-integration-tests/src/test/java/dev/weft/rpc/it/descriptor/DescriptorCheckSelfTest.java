package dev.weft.rpc.it.descriptor;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Proves the descriptor walk parses the §5 format and catches each kind of bad line. */
class DescriptorCheckSelfTest {

    /** Not a LoadBalance. */
    public static final class NotABalancer {
    }

    /** A LoadBalance without a usable constructor. */
    public static final class NeedsConfig implements LoadBalance {
        private final String config;

        public NeedsConfig(String config) {
            this.config = config;
        }

        @Override
        public <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) {
            return invokers.get(config.length() % invokers.size());
        }
    }

    @Test
    void read_parsesNamesAliasesBareClassesAndSkipsComments(@TempDir Path dir) throws Exception {
        Path file = write(dir, "# header\n\nfirst=a.B\n a , b = c.D  # trailing comment\nplain.Class\r\n   \n");

        List<Descriptor.Line> lines = Descriptor.read(file.toUri().toURL());

        assertThat(lines).containsExactly(
                new Descriptor.Line(3, List.of("first"), "a.B"),
                new Descriptor.Line(4, List.of("a", "b"), "c.D"),
                new Descriptor.Line(5, List.of(), "plain.Class"));
    }

    @Test
    void lineProblems_reportsMissingClassWrongTypeAndConstructor_withLineNumbers(@TempDir Path dir) throws Exception {
        Path file = write(dir, "ok=dev.weft.rpc.examples.extension.LocalFirstLoadBalance\n"
                + "missing=com.example.Missing\n"
                + "wrong=" + NotABalancer.class.getName() + "\n"
                + "ctor=" + NeedsConfig.class.getName() + "\n");
        Descriptor descriptor = new Descriptor(LoadBalance.class.getName(), file.toUri().toURL(),
                Descriptor.read(file.toUri().toURL()));

        List<String> problems = ExtensionDescriptorTest.lineProblems(descriptor, getClass().getClassLoader());

        assertThat(problems).hasSize(3);
        assertThat(problems.get(0)).contains("line 2 (missing=com.example.Missing): class not loadable");
        assertThat(problems.get(1)).contains("line 3 (wrong=").contains("(expected: implements dev.weft.rpc.loadbalance.LoadBalance)");
        assertThat(problems.get(2)).contains("line 4 (ctor=").contains("(expected: a public no-arg constructor");
    }

    private static Path write(Path dir, String content) throws Exception {
        Path file = dir.resolve(LoadBalance.class.getName());
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return file;
    }
}
