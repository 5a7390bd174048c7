package dev.weft.rpc.testing;

import com.google.common.base.Ticker;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.lang.reflect.Method;

/**
 * Gives each test its own {@link ExtensionDirector} and closes it after the test, so extensions
 * created in one test (and whatever they own: threads, statistics) never reach another, and the
 * JVM-wide default director is left alone.
 *
 * <pre>{@code
 * @ExtendWith(IsolatedDirectorExtension.class)
 * class MyBalancerTest {
 *     @Test
 *     void isFoundByName(ExtensionDirector director) {
 *         assertThat(director.getExtensionLoader(LoadBalance.class).getExtension("mine")).isInstanceOf(MyBalancer.class);
 *     }
 * }
 * }</pre>
 *
 * <p>Parameters of type {@link ExtensionDirector} and {@link FakeTicker} of a test method and of
 * its {@code @BeforeEach}/{@code @AfterEach} methods are resolved; within one test they are the
 * same instances. The director reads descriptors through the test class's class loader and is
 * built with the ticker ({@code new ExtensionDirector(classLoader, ticker)}), so
 * {@link ExtensionDirector#getTicker()} is the test's {@link FakeTicker} and every extension that
 * reads the director's clock runs on the test's time. The director is closed after the last
 * {@code @AfterEach} method, whether the test passed or not.
 *
 * <p>Stateless itself (per-test state lives in JUnit's per-test store), so it is safe with
 * parallel test execution.
 */
public final class IsolatedDirectorExtension implements ParameterResolver, AfterEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(IsolatedDirectorExtension.class);
    private static final String DIRECTOR = "director";
    private static final String TICKER = "ticker";

    /** Used by JUnit. */
    public IsolatedDirectorExtension() {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == ExtensionDirector.class || type == FakeTicker.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        if (!(parameter.getDeclaringExecutable() instanceof Method) || context.getTestMethod().isEmpty()) {
            throw new ParameterResolutionException("parameter: " + parameter.getParameter().getType().getSimpleName()
                    + " of " + parameter.getDeclaringExecutable() + " (expected: a parameter of a @Test, @BeforeEach or"
                    + " @AfterEach method; one director lives for one test)");
        }
        return parameter.getParameter().getType() == FakeTicker.class ? ticker(context) : director(context);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        ExtensionDirector director = context.getStore(NAMESPACE).remove(DIRECTOR, ExtensionDirector.class);
        if (director != null) {
            director.close();
        }
    }

    private static FakeTicker ticker(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        FakeTicker ticker = store.get(TICKER, FakeTicker.class);
        if (ticker == null) {
            ticker = new FakeTicker();
            store.put(TICKER, ticker);
        }
        return ticker;
    }

    private static ExtensionDirector director(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        ExtensionDirector director = store.get(DIRECTOR, ExtensionDirector.class);
        if (director == null) {
            ClassLoader classLoader = context.getRequiredTestClass().getClassLoader();
            director = newDirector(classLoader, ticker(context));
            store.put(DIRECTOR, director);
        }
        return director;
    }

    /** The test's director: the test class's loader, and the test's ticker as the director's clock. */
    static ExtensionDirector newDirector(ClassLoader classLoader, Ticker ticker) {
        return new ExtensionDirector(classLoader, ticker);
    }
}
