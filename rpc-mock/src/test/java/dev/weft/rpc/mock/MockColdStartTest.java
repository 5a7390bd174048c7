package dev.weft.rpc.mock;

import dev.weft.rpc.mock.internal.MockJson;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.UserService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Jackson (about 400 classes, some 100 ms in a fresh JVM) is loaded only when a mock expression
 * needs a value converted: consumers without mocks do not pay for it at start-up.
 */
class MockColdStartTest {

    private static final String JACKSON = "com.fasterxml.jackson.";

    @ParameterizedTest
    @ValueSource(strings = {"cluster=failfast", "cluster=failover&mock=false", "mock=fail:throw", "mock=true",
            "count.mock=force:throw dev.weft.rpc.mock.fixtures.UserNotFoundException"})
    void freshClassLoader_mocksThatConvertNoValue_neverLoadJackson(String query) throws Exception {
        try (RecordingLoader loader = RecordingLoader.overTestClassPath()) {
            Object answer = loader.runScenario(query);

            assertThat(answer).isEqualTo("provider");
            assertThat(loader.loaded).contains(MockClusterWrapper.class.getName(), MockInvoker.class.getName());
            assertThat(loader.loaded).noneMatch(name -> name.startsWith(JACKSON))
                    .doesNotContain(MockJson.class.getName());
        }
    }

    @Test
    void freshClassLoader_returnValueMock_loadsJacksonAtJoin() throws Exception {
        try (RecordingLoader loader = RecordingLoader.overTestClassPath()) {
            Object answer = loader.runScenario("count.mock=force:return 7");

            assertThat(answer).isEqualTo("provider"); // sayHello has no mock
            assertThat(loader.loaded).contains(MockJson.class.getName(), "com.fasterxml.jackson.databind.ObjectMapper");
        }
    }

    @Test
    void mockInvoker_buildsConverterOnlyForAReturnExpression() {
        MockSupport support = new MockSupport(new ReflectiveInvokers());
        URL plain = URL.valueOf("consumer://10.0.0.1/" + UserService.class.getName());

        assertThat(MockInvoker.create(UserService.class, plain, support).converterCreated()).isFalse();
        MockInvoker<UserService> throwing = MockInvoker.create(UserService.class, plain.addParameter("mock", "fail:throw"), support);
        assertThat(throwing.converterCreated()).isFalse();
        assertThat(throwing.mockInstances()).isZero();

        assertThat(MockInvoker.create(UserService.class, plain.addParameter("count.mock", "return 7"), support).converterCreated())
                .isTrue();
    }

    /** Loads every non-JDK class itself (parent: the platform loader) and records the names asked for. */
    private static final class RecordingLoader extends URLClassLoader {
        final Set<String> loaded = ConcurrentHashMap.newKeySet();

        private RecordingLoader(java.net.URL[] urls) {
            super("cold-start", urls, ClassLoader.getPlatformClassLoader());
        }

        static RecordingLoader overTestClassPath() throws MalformedURLException {
            List<java.net.URL> urls = new ArrayList<>();
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                urls.add(new File(entry).toURI().toURL());
            }
            RecordingLoader loader = new RecordingLoader(urls.toArray(new java.net.URL[0]));
            assertThat(loader.getResource(ColdPathScenario.class.getName().replace('.', '/') + ".class"))
                    .as("test classes on java.class.path").isNotNull();
            return loader;
        }

        Object runScenario(String query) throws ReflectiveOperationException {
            Class<?> scenario = Class.forName(ColdPathScenario.class.getName(), true, this);
            assertThat(scenario.getClassLoader()).isSameAs(this);
            @SuppressWarnings("unchecked")
            Function<String, Object> run = (Function<String, Object>) scenario.getDeclaredConstructor().newInstance();
            return run.apply(query);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            loaded.add(name);
            return super.loadClass(name, resolve);
        }
    }
}
