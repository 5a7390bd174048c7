package dev.weft.rpc.spi.internal;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.URL;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Locale;

/**
 * How one method of a generated adaptive extension dispatches: where the URL comes from, which
 * keys name the extension, and whether an {@link Invocation} argument makes lookups method-level.
 * Immutable.
 *
 * @param method           the interface method
 * @param adaptive         whether it is annotated {@code @Adaptive} (otherwise it throws)
 * @param keys             URL keys tried in order
 * @param urlIndex         index of the argument that is or carries the URL, or -1
 * @param urlThroughGetter whether that argument is asked {@code getUrl()} rather than being a URL
 * @param invocationIndex  index of an {@link Invocation} argument, or -1
 */
public record AdaptiveMethod(Method method, boolean adaptive, List<String> keys, int urlIndex,
                             boolean urlThroughGetter, int invocationIndex) {

    public AdaptiveMethod {
        keys = List.copyOf(keys);
    }

    /**
     * Analyses {@code method} of extension point {@code type}.
     *
     * @param declaredKeys the keys of its {@code @Adaptive} annotation, or {@code null} when it has none
     * @throws IllegalStateException when an adaptive method has no way to find a URL
     */
    public static AdaptiveMethod of(Class<?> type, Method method, String[] declaredKeys) {
        if (declaredKeys == null) {
            return new AdaptiveMethod(method, false, List.of(), -1, false, -1);
        }
        List<String> keys = declaredKeys.length == 0 ? List.of(defaultKey(type)) : List.of(declaredKeys);
        Class<?>[] parameters = method.getParameterTypes();
        int urlIndex = -1;
        boolean throughGetter = false;
        for (int i = 0; i < parameters.length && urlIndex < 0; i++) {
            if (parameters[i] == URL.class) {
                urlIndex = i;
            }
        }
        for (int i = 0; i < parameters.length && urlIndex < 0; i++) {
            if (hasUrlGetter(parameters[i])) {
                urlIndex = i;
                throughGetter = true;
            }
        }
        int invocationIndex = -1;
        for (int i = 0; i < parameters.length && invocationIndex < 0; i++) {
            if (Invocation.class.isAssignableFrom(parameters[i])) {
                invocationIndex = i;
            }
        }
        if (urlIndex < 0) {
            throw new IllegalStateException("@Adaptive method: " + type.getName() + "." + method.getName()
                    + " (expected: a parameter of type " + URL.class.getName()
                    + " or one with a public no-arg getUrl() returning it)");
        }
        return new AdaptiveMethod(method, true, keys, urlIndex, throughGetter, invocationIndex);
    }

    private static boolean hasUrlGetter(Class<?> parameter) {
        if (parameter.isPrimitive() || parameter.isArray()) {
            return false;
        }
        try {
            Method getter = parameter.getMethod("getUrl");
            return getter.getReturnType() == URL.class && !Modifier.isStatic(getter.getModifiers())
                    && Modifier.isPublic(parameter.getModifiers());
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /**
     * The key used when {@code @Adaptive} lists no keys: the simple name split at case changes
     * and joined by dots, lower-case ({@code LoadBalance} -> {@code load.balance},
     * {@code HTTPServer} -> {@code http.server}).
     */
    public static String defaultKey(Class<?> type) {
        String simple = type.getSimpleName();
        StringBuilder sb = new StringBuilder(simple.length() + 4);
        for (int i = 0; i < simple.length(); i++) {
            char c = simple.charAt(i);
            if (i > 0 && Character.isUpperCase(c)) {
                char previous = simple.charAt(i - 1);
                boolean nextIsLower = i + 1 < simple.length() && Character.isLowerCase(simple.charAt(i + 1));
                if (Character.isLowerCase(previous) || Character.isDigit(previous)
                        || (Character.isUpperCase(previous) && nextIsLower)) {
                    sb.append('.');
                }
            }
            sb.append(c);
        }
        return sb.toString().toLowerCase(Locale.ROOT);
    }

    /** A one-line description of the dispatch, for debugging. */
    public String describe() {
        String signature = method.getName() + signature(method);
        if (!adaptive) {
            return signature + " -> throws UnsupportedOperationException (not @Adaptive)";
        }
        String url = "arg" + urlIndex + (urlThroughGetter ? ".getUrl()" : "");
        String lookup = invocationIndex >= 0
                ? "url.getMethodParameter(arg" + invocationIndex + ".getMethodName(), key)"
                : "url.getParameter(key)";
        return signature + " -> url = " + url + "; name = first non-empty " + lookup + " for key in " + keys;
    }

    private static String signature(Method method) {
        StringBuilder sb = new StringBuilder("(");
        Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(types[i].getSimpleName()).append(" arg").append(i);
        }
        return sb.append(')').toString();
    }
}
