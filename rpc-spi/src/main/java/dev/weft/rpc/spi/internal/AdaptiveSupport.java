package dev.weft.rpc.spi.internal;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.function.Function;

/**
 * The run-time half of a generated adaptive extension: the generated class holds one of these
 * and calls it with the method index, so no string from an annotation is ever embedded in
 * generated code, and the dispatch logic is plain, debuggable Java.
 *
 * <p>Per call: read the keys from the URL (method level when an {@link Invocation} is passed;
 * the key {@value #PROTOCOL_KEY} reads the URL's scheme),
 * fall back to the default name, and return the loader's extension of that name (one map read
 * once it exists; the loader refuses every name once its director is closed). Thread-safe and
 * stateless beyond its construction.
 */
public final class AdaptiveSupport {

    /**
     * The adaptive key that means the URL's scheme rather than a parameter, as in Dubbo: a
     * {@code Protocol} or {@code RegistryFactory} is chosen by {@code weft://} or
     * {@code zookeeper://}, never by a {@code protocol=} parameter.
     */
    public static final String PROTOCOL_KEY = "protocol";

    private final Class<?> type;
    private final String defaultName;
    private final AdaptiveMethod[] methods;
    private final Function<String, Object> extensions;

    public AdaptiveSupport(Class<?> type, String defaultName, List<AdaptiveMethod> methods,
                           Function<String, Object> extensions) {
        this.type = type;
        this.defaultName = defaultName;
        this.methods = methods.toArray(new AdaptiveMethod[0]);
        this.extensions = extensions;
    }

    /** The dispatch of each method, in the index order generated code uses. */
    public List<AdaptiveMethod> methods() {
        return List.of(methods);
    }

    /** Called by generated code: the extension for method {@code index} given its URL and invocation. */
    public Object extension(int index, URL url, Invocation invocation) {
        AdaptiveMethod method = methods[index];
        if (url == null) {
            throw new IllegalStateException("URL: null (expected: a URL from argument " + method.urlIndex()
                    + (method.urlThroughGetter() ? ".getUrl()" : "") + " of " + type.getName() + "."
                    + method.method().getName() + " to pick the extension by " + method.keys() + ")");
        }
        String name = null;
        List<String> keys = method.keys();
        String methodName = invocation == null ? null : invocation.getMethodName();
        for (int i = 0, n = keys.size(); i < n && name == null; i++) {
            String key = keys.get(i);
            if (PROTOCOL_KEY.equals(key)) {
                String protocol = url.getProtocol();
                name = protocol == null || protocol.isEmpty() ? null : protocol;
            } else {
                name = methodName == null
                        ? url.getParameter(key, (String) null)
                        : url.getMethodParameter(methodName, key, (String) null);
            }
        }
        if (name == null) {
            name = defaultName;
            if (name == null) {
                throw new IllegalStateException("Extension name for " + type.getName() + "." + method.method().getName()
                        + ": none (expected: one of the URL keys " + method.keys() + " in " + url
                        + ", or a default in @SPI)");
            }
        }
        return extensions.apply(name);
    }

    /** Called by generated code before {@code getUrl()} on a null argument. */
    public Object requireUrlHolder(Object argument, int index) {
        if (argument == null) {
            AdaptiveMethod method = methods[index];
            throw new IllegalArgumentException("argument " + method.urlIndex() + " of " + type.getName() + "."
                    + method.method().getName() + ": null (expected: a "
                    + method.method().getParameterTypes()[method.urlIndex()].getName() + " whose getUrl() names the extension)");
        }
        return argument;
    }

    /** Called by generated code for methods without {@code @Adaptive}. */
    public RuntimeException unsupported(int index) {
        return new UnsupportedOperationException("method: " + type.getName() + "." + methods[index].method().getName()
                + " (expected: an @Adaptive method; the adaptive extension only dispatches those)");
    }

    /** A readable rendering of the generated logic, one line per method. */
    public String describe() {
        StringBuilder sb = new StringBuilder("adaptive ").append(type.getName())
                .append(" (default: ").append(defaultName == null ? "none" : defaultName).append(')');
        for (AdaptiveMethod method : methods) {
            sb.append("\n  ").append(method.describe());
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return describe();
    }
}
