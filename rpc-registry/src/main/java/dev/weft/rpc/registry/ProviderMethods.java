package dev.weft.rpc.registry;

import com.google.common.base.Splitter;
import dev.weft.rpc.common.URL;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The provider URL key {@value #METHODS_KEY}: the method names of the exported interface,
 * comma-separated and sorted, registered with the provider so that tools reading the registry
 * (rpc-admin) can check the methods a rule names and show which methods it affects. Consumers do
 * not read it. Stateless.
 */
public final class ProviderMethods {

    /** Provider key: the interface's method names, comma-separated and sorted (written at export). */
    public static final String METHODS_KEY = "methods";

    private ProviderMethods() {
    }

    /**
     * The value of {@value #METHODS_KEY} for {@code type}: the names of its public, non-static
     * methods (inherited ones included, each name once), sorted, comma-separated.
     */
    public static String of(Class<?> type) {
        Objects.requireNonNull(type, "type");
        SortedSet<String> names = new TreeSet<>();
        for (Method method : type.getMethods()) {
            if (!Modifier.isStatic(method.getModifiers()) && method.getDeclaringClass() != Object.class) {
                names.add(method.getName());
            }
        }
        return String.join(",", names);
    }

    /**
     * The method names the providers {@code providers} list (each provider's {@value #METHODS_KEY},
     * all together), sorted; empty when none of them lists its methods (a provider exported by
     * another framework, or one that registers no such key).
     */
    public static SortedSet<String> listedBy(Collection<URL> providers) {
        Objects.requireNonNull(providers, "providers");
        SortedSet<String> names = new TreeSet<>();
        for (URL provider : providers) {
            String listed = provider.getParameter(METHODS_KEY);
            if (listed != null) {
                Splitter.on(',').trimResults().omitEmptyStrings().split(listed).forEach(names::add);
            }
        }
        return names;
    }
}
