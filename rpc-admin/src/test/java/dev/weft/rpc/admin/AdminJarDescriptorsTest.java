package dev.weft.rpc.admin;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Guards {@code weft-admin.jar}: each extension descriptor and URL key declaration that several
 * jars on the class path ship must be appended when shading (an overwritten one would lose
 * extensions, or make {@code RuleCheck} call a valid key unknown).
 */
class AdminJarDescriptorsTest {

    private static final Pattern APPENDED = Pattern.compile("AppendingTransformer\">\\s*<resource>([^<]+)</resource>");

    @Test
    void everyDescriptorAndKeyDeclaration_isAppendedWhenShading() throws Exception {
        Set<String> appended = new TreeSet<>();
        Matcher matcher = APPENDED.matcher(Files.readString(Path.of("pom.xml"), StandardCharsets.UTF_8));
        while (matcher.find()) {
            appended.add(matcher.group(1));
        }
        Set<String> shipped = new TreeSet<>();
        for (URL folder : Collections.list(getClass().getClassLoader().getResources("META-INF/rpc/"))) {
            shipped.addAll(filesIn(folder, "META-INF/rpc/"));
        }

        assertThat(shipped).contains("META-INF/rpc/dev.weft.rpc.cluster.Cluster", "META-INF/rpc/dev.weft.rpc.protocol.Filter");
        assertThat(appended).containsAll(shipped).contains("META-INF/weft/url-keys");
    }

    /** The files directly in {@code folder} (a directory, or a folder of a jar), named from {@code prefix}. */
    private static Set<String> filesIn(URL folder, String prefix) throws IOException, URISyntaxException {
        Set<String> names = new TreeSet<>();
        if (folder.getProtocol().equals("jar")) {
            JarURLConnection connection = (JarURLConnection) folder.openConnection();
            connection.setUseCaches(false); // a JarFile of its own, closed here
            try (JarFile jar = connection.getJarFile()) {
                jar.stream().map(JarEntry::getName)
                        .filter(name -> name.startsWith(prefix) && name.length() > prefix.length() && !name.endsWith("/"))
                        .forEach(names::add);
            }
        } else {
            try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
                files.filter(Files::isRegularFile).forEach(file -> names.add(prefix + file.getFileName()));
            }
        }
        return names;
    }
}
