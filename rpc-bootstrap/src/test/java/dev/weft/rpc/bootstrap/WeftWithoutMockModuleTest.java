package dev.weft.rpc.bootstrap;

import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * An application that excluded {@code dev.weft:rpc-mock}: a {@code mock} key fails the refer naming
 * the artifact instead of silently doing nothing. The module is hidden by a class loader that
 * leaves out the resources of its jar (or classes folder), as if it were not on the class path.
 */
class WeftWithoutMockModuleTest {

    /** Hides every resource that comes from the rpc-mock module. */
    private static final class WithoutMockModule extends ClassLoader {
        WithoutMockModule(ClassLoader parent) {
            super(parent);
        }

        private static boolean fromMockModule(URL resource) {
            String path = resource.toString();
            return path.contains("/rpc-mock/") || path.contains("/rpc-mock-");
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            List<URL> kept = Collections.list(super.getResources(name)).stream().filter(r -> !fromMockModule(r)).toList();
            return Collections.enumeration(kept);
        }

        @Override
        public URL getResource(String name) {
            URL resource = super.getResource(name);
            return resource == null || fromMockModule(resource) ? null : resource;
        }
    }

    @Test
    void mockKey_withoutTheMockModule_failsTheRefer_namingTheArtifact() {
        try (ExtensionDirector director = new ExtensionDirector(new WithoutMockModule(getClass().getClassLoader()));
             Weft weft = Weft.builder().director(director).build()) {
            int port = weft.export(Greeter.class, new NamedGreeter("a"), "weft://127.0.0.1:0").getInvoker().getUrl().getPort();

            assertThatIllegalArgumentException()
                    .isThrownBy(() -> weft.refer(Greeter.class, "url=weft://127.0.0.1:" + port + "&mock=fail:return null"))
                    .withMessageContaining("mock=fail:return null needs the artifact dev.weft:rpc-mock");
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> weft.refer(Greeter.class, "url=weft://127.0.0.1:" + port + "&greet.mock=force:return x"))
                    .withMessageContaining("greet.mock=force:return x needs the artifact dev.weft:rpc-mock");
            // Without a mock key the refer works: only the missing fallback is refused.
            assertThat(weft.refer(Greeter.class, "url=weft://127.0.0.1:" + port).greet("ada")).isEqualTo("a:ada");
        }
    }

    @Test
    void mockKey_withTheMockModule_runsTheMock() {
        try (Weft weft = Weft.builder().build()) {
            Greeter greeter = weft.refer(Greeter.class, "url=weft://127.0.0.1:1&check=false&mock=force:return mocked");
            assertThat(greeter.greet("ada")).isEqualTo("mocked");
        }
    }
}
