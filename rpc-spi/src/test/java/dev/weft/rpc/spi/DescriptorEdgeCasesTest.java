package dev.weft.rpc.spi;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.fixtures.Widget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.MalformedURLException;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Descriptors as extension authors really write them: byte-order marks, stray characters, huge files, wrappers by name. */
class DescriptorEdgeCasesTest {

    private static final String BASIC = "dev.weft.rpc.spi.fixtures.Widgets$Basic";
    private static final String TRACING = "dev.weft.rpc.spi.fixtures.Widgets$Tracing";
    private static final String LOGGING = "dev.weft.rpc.spi.fixtures.Widgets$Logging";

    @TempDir
    Path root;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : toClose) {
            closeable.close();
        }
    }

    private Path descriptor() throws IOException {
        Path file = root.resolve("META-INF/rpc/" + Widget.class.getName());
        Files.createDirectories(file.getParent());
        return file;
    }

    private ExtensionLoader<Widget> loaderFor(String text) throws IOException {
        Files.write(descriptor(), text.getBytes(StandardCharsets.UTF_8));
        return loader(new URLClassLoader(new java.net.URL[]{root.toUri().toURL()}, getClass().getClassLoader()));
    }

    private ExtensionLoader<Widget> loader(URLClassLoader classLoader) {
        ExtensionDirector director = new ExtensionDirector(classLoader);
        toClose.add(director);
        toClose.add(classLoader);
        return director.getExtensionLoader(Widget.class);
    }

    @Test
    void byteOrderMark_atTheStartOfTheFile_isAccepted() throws IOException {
        ExtensionLoader<Widget> loader = loaderFor("\uFEFFbasic=" + BASIC + "\n");
        assertThat(loader.getExtension("basic").id()).isEqualTo("basic");
        assertThat(loader.getProblems()).isEmpty();
    }

    @Test
    void trailingNoBreakSpace_isReportedVisibly_andInThePerCallError() throws IOException {
        ExtensionLoader<Widget> loader = loaderFor("basic=" + BASIC + "\u00A0\n");
        assertThat(loader.getProblems()).hasSize(2); // the line, and 'basic' being the @SPI default
        assertThat(loader.getProblems().get(0))
                .startsWith("'basic' at file:")
                .endsWith(":1: line: 'basic=" + BASIC + "\\u00A0' (expected: no invisible characters; found \\u00A0 at column "
                        + (("basic=" + BASIC).length() + 1) + "; a UTF-8 byte-order mark is accepted only at the start of the file)");
        assertThatThrownBy(() -> loader.getExtension("basic"))
                .hasMessageContaining("No extension 'basic'")
                .hasMessageContaining("its descriptor line failed: ")
                .hasMessageContaining("found \\u00A0");
    }

    @Test
    void zeroWidthSpaceInAName_isReportedUnderTheNameMeant() throws IOException {
        ExtensionLoader<Widget> loader = loaderFor("# widgets\n  ba\u200Bsic=" + BASIC + "\n");
        assertThatThrownBy(() -> loader.getExtension("basic"))
                .hasMessageContaining(":2: line: 'ba\\u200Bsic=" + BASIC + "' (expected: no invisible characters; found \\u200B at column 5;");
    }

    @Test
    void byteOrderMark_onALaterLine_isAnInvisibleCharacter() throws IOException {
        ExtensionLoader<Widget> loader = loaderFor("# widgets\n\uFEFFbasic=" + BASIC + "\n");
        assertThatThrownBy(() -> loader.getExtension("basic")).hasMessageContaining("found \\uFEFF at column 1");
    }

    @Test
    void spiDefault_thatNoDescriptorBinds_failsValidate_andTheErrorSaysWhereTheNameCameFrom() throws IOException {
        ExtensionLoader<Widget> loader = loaderFor("tracing=" + TRACING + "\n");
        String file = descriptor().toUri().toURL().toExternalForm();
        assertThatThrownBy(loader::validate)
                .hasMessageContaining("@SPI default: 'basic' (expected: a name bound by a descriptor; available: [tracing]; "
                        + "descriptor files read: [" + file + "])");
        assertThatThrownBy(loader::getDefaultExtension)
                .hasMessage("No extension 'basic' for " + Widget.class.getName() + " (available: [tracing]; "
                        + "'basic' is the default named by @SPI on Widget; descriptor files read: [" + file + "])");
    }

    @Test
    void spiDefault_withNoDescriptorAtAll_saysNoFileWasRead() throws IOException {
        ExtensionLoader<Widget> loader = loader(new URLClassLoader(new java.net.URL[]{root.toUri().toURL()}, getClass().getClassLoader()));
        assertThatThrownBy(loader::getDefaultExtension)
                .hasMessageEndingWith("descriptor files read: none (expected: META-INF/rpc/" + Widget.class.getName()
                        + " on the class path))");
    }

    @Test
    void wrapperAskedForByItsName_saysItIsAWrapper() throws IOException {
        ExtensionLoader<Widget> loader = loaderFor("basic=" + BASIC + "\nlogging=" + LOGGING + "\n");
        assertThat(loader.getExtension("basic").id()).isEqualTo("logged basic");
        assertThatThrownBy(() -> loader.getExtension("logging"))
                .hasMessageContaining("No extension 'logging'")
                .hasMessageContaining("'logging' names the wrapper " + LOGGING + " at file:")
                .hasMessageContaining(", which wraps the other extensions and cannot be selected by name");
    }

    @Test
    void hugeDescriptor_isReportedNamingTheFile_withoutReadingIt() throws IOException {
        Path file = descriptor();
        try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
            out.write(("basic=" + BASIC + "\n").getBytes(StandardCharsets.US_ASCII));
            out.setLength(64L << 20); // one 64 MB line of NUL characters after the first line
        }
        ExtensionLoader<Widget> loader = loader(new URLClassLoader(new java.net.URL[]{root.toUri().toURL()}, getClass().getClassLoader()));
        String name = file.toUri().toURL().toExternalForm();
        assertThatThrownBy(() -> loader.getExtension("basic"))
                .hasMessageContaining("descriptor problems naming no extension: " + name
                        + ": descriptor size: more than 1048576 bytes (expected: at most 1048576 bytes of name=class lines; the file is not read)");
        assertThat(loader.getProblems().get(0)).contains(name).contains("descriptor size");
    }

    @Test
    void failedDescriptor_isReadOnce_notOnEveryCall() throws IOException {
        Path file = descriptor();
        Files.write(file, new byte[]{'b', '=', (byte) 0xC3, (byte) 0x28}); // malformed UTF-8
        AtomicInteger listings = new AtomicInteger();
        URLClassLoader counting = new URLClassLoader(new java.net.URL[]{root.toUri().toURL()}, getClass().getClassLoader()) {
            @Override
            public Enumeration<java.net.URL> getResources(String resource) throws IOException {
                listings.incrementAndGet();
                return super.getResources(resource);
            }
        };
        ExtensionLoader<Widget> loader = loader(counting);
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> loader.getExtension("b"))
                    .hasMessageContaining("descriptor encoding: not UTF-8 (expected: UTF-8 text; the file is not read)");
        }
        assertThat(listings).hasValue(2); // META-INF/rpc/ and META-INF/services/, once each
    }

    @Test
    void activate_trace_isOffForOffValues_andForOtherKeysEndingInTrace() throws IOException, MalformedURLException {
        ExtensionLoader<Widget> loader = loaderFor("basic=" + BASIC + "\ntracing=" + TRACING + "\n");
        assertThat(activated(loader, "t://h?trace=true")).containsExactly("tracing");
        assertThat(activated(loader, "t://h?trace=yes")).containsExactly("tracing");
        assertThat(activated(loader, "t://h?sayHello.trace=1")).containsExactly("tracing");
        assertThat(activated(loader, "t://h?trace=false")).isEmpty();
        assertThat(activated(loader, "t://h?trace=FALSE")).isEmpty();
        assertThat(activated(loader, "t://h?trace=0")).isEmpty();
        assertThat(activated(loader, "t://h?trace=null")).isEmpty();
        assertThat(activated(loader, "t://h?trace=off")).isEmpty();
        assertThat(activated(loader, "t://h?trace=")).isEmpty();
        assertThat(activated(loader, "t://h?otel.trace=off")).isEmpty();
        assertThat(activated(loader, "t://h?a.otel.trace=on")).isEmpty();
        assertThat(activated(loader, "t://h?otel-trace=on")).isEmpty();
        assertThat(activated(loader, "t://h?nottrace=on")).isEmpty();
        assertThat(activated(loader, "t://h?trace=false&sayHello.trace=true")).containsExactly("tracing");
    }

    private static List<String> activated(ExtensionLoader<Widget> loader, String url) {
        return loader.getActivateExtensions(URL.valueOf(url), "widgets", null).stream().map(Widget::id).toList();
    }
}
