package dev.weft.rpc.examples;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Guards the shaded {@code weft-playground.jar}: every {@code META-INF/rpc/} descriptor shipped by a
 * jar on the class path must be merged by an {@code AppendingTransformer} in this module's POM,
 * or the fat jar would keep only one jar's copy and lose extensions (the mock wrapper, say).
 */
class PlaygroundJarDescriptorsTest {

    private static final String PREFIX = "META-INF/rpc/";
    private static final Pattern APPENDED = Pattern.compile(
            "AppendingTransformer\">\\s*<resource>(" + Pattern.quote(PREFIX) + "[^<]+)</resource>");

    @Test
    void everyDescriptorOnTheClassPath_isAppendedWhenShading() throws IOException {
        Set<String> appended = new TreeSet<>();
        Matcher matcher = APPENDED.matcher(Files.readString(Path.of("pom.xml"), StandardCharsets.UTF_8));
        while (matcher.find()) {
            appended.add(matcher.group(1));
        }

        Set<String> shipped = descriptorsOnClassPath();

        assertThat(shipped).as("descriptors on the class path").contains(
                PREFIX + "dev.weft.rpc.cluster.Cluster",
                PREFIX + "dev.weft.rpc.loadbalance.LoadBalance",
                PREFIX + "dev.weft.rpc.proxy.ProxyFactory");
        assertThat(appended).as("AppendingTransformer resources in rpc-examples/pom.xml").containsAll(shipped);
    }

    private static Set<String> descriptorsOnClassPath() throws IOException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Set<String> found = new TreeSet<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (entry.isEmpty() || path.endsWith("test-classes") || !Files.exists(path)) {
                continue;
            }
            if (Files.isDirectory(path)) {
                Path dir = path.resolve(PREFIX);
                if (Files.isDirectory(dir)) {
                    try (Stream<Path> files = Files.list(dir)) {
                        files.filter(Files::isRegularFile).forEach(f -> found.add(PREFIX + f.getFileName()));
                    }
                }
            } else if (entry.endsWith(".jar")) {
                try (JarFile jar = new JarFile(path.toFile())) {
                    jar.stream()
                            .filter(e -> !e.isDirectory() && e.getName().startsWith(PREFIX))
                            .forEach(e -> found.add(e.getName()));
                }
            }
        }
        return found;
    }
}
