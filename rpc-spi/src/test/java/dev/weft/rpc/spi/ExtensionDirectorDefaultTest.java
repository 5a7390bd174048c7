package dev.weft.rpc.spi;

import dev.weft.rpc.spi.fixtures.SelfNeeding;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The JVM-wide default director: one at a time, renewed after close, reads the context class loader. */
class ExtensionDirectorDefaultTest {

    @AfterEach
    void closeDefault() {
        ExtensionDirector.getDefault().close();
    }

    @Test
    void getDefault_isOneDirectorUntilClosed_thenAFreshOne() {
        ExtensionDirector first = ExtensionDirector.getDefault();

        assertThat(ExtensionDirector.getDefault()).isSameAs(first);
        assertThat(first.isClosed()).isFalse();
        assertThat(first.getClassLoader()).isSameAs(ExtensionDirector.class.getClassLoader());
        assertThat(first.toString()).doesNotContain("closed");
        first.close();
        assertThat(first.isClosed()).isTrue();
        assertThat(first.toString()).contains(", closed");

        ExtensionDirector second = ExtensionDirector.getDefault();
        assertThat(second).isNotNull().isNotSameAs(first);
        assertThat(second.isClosed()).isFalse();
        assertThat(ExtensionLoader.getExtensionLoader(SelfNeeding.class).getType()).isSameAs(SelfNeeding.class);
    }

    @Test
    void defaultDirector_readsDescriptorsOfTheContextClassLoader(@TempDir Path extra) throws Exception {
        Path descriptor = extra.resolve("META-INF/rpc/" + SelfNeeding.class.getName());
        Files.createDirectories(descriptor.getParent());
        Files.writeString(descriptor, "plain=" + SelfNeeding.Plain.class.getName() + "\n");
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        ExtensionDirector.getDefault().close();
        try (URLClassLoader context = new URLClassLoader(new java.net.URL[] {extra.toUri().toURL()}, getClass().getClassLoader())) {
            thread.setContextClassLoader(context);
            ExtensionLoader<SelfNeeding> loader = ExtensionLoader.getExtensionLoader(SelfNeeding.class);

            assertThat(loader.getSupportedExtensions()).contains("plain", "loop");
            assertThat(loader.getExtension("plain")).isInstanceOf(SelfNeeding.Plain.class);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Test
    void anOwnDirector_doesNotReadTheContextClassLoader(@TempDir Path extra) throws Exception {
        Path descriptor = extra.resolve("META-INF/rpc/" + SelfNeeding.class.getName());
        Files.createDirectories(descriptor.getParent());
        Files.writeString(descriptor, "plain=" + SelfNeeding.Plain.class.getName() + "\n");
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader context = new URLClassLoader(new java.net.URL[] {extra.toUri().toURL()}, getClass().getClassLoader());
             ExtensionDirector own = new ExtensionDirector(getClass().getClassLoader())) {
            thread.setContextClassLoader(context);

            assertThat(own.getExtensionLoader(SelfNeeding.class).getSupportedExtensions()).containsExactly("loop");
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Test
    void constructorAskingForItself_isACycleError_notWrapped() {
        ExtensionLoader<SelfNeeding> loader = ExtensionLoader.getExtensionLoader(SelfNeeding.class);

        assertThatThrownBy(() -> loader.getExtension("loop"))
                .isExactlyInstanceOf(ExtensionCycleException.class)
                .hasMessageContaining(SelfNeeding.class.getName() + ":loop -> ");
    }
}
