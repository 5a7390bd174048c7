package dev.weft.rpc.proxy.internal;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The callable methods of one service interface, each with a fixed index: the table shared by
 * proxies (which know their index statically) and invokers (which switch on it).
 *
 * <p>A method is identified by name and parameter types. The methods of {@link Object}
 * ({@code equals}, {@code hashCode}, {@code toString}) and static methods are excluded, even
 * when the interface redeclares them; default methods are included. When an interface inherits
 * the same name and parameter types with covariant return types, the most specific one is the
 * callable method and every variant is {@linkplain #bindings() bound} to its index.
 *
 * <p>Immutable and thread-safe; one instance per interface, cached without pinning the
 * interface's class loader ({@link #of}).
 */
final class ServiceMethods {

    private static final PerInterfaceCache<ServiceMethods> CACHE = new PerInterfaceCache<>(ServiceMethods::new);

    private final Class<?> type;
    private final ServiceMethod[] methods;
    private final Map<String, ServiceMethod[]> byName;
    private final List<Binding> bindings;

    /** An interface method whose bytecode descriptor is implemented by calling method {@code index}. */
    record Binding(Method method, int index) {
    }

    private ServiceMethods(Class<?> type) {
        this.type = type;
        Map<String, List<Method>> bySignature = new LinkedHashMap<>();
        for (Method method : type.getMethods()) {
            if (Modifier.isStatic(method.getModifiers()) || isObjectMethod(method)) {
                continue;
            }
            String signature = ServiceMethod.signature(method.getName(), method.getParameterTypes());
            List<Method> variants = bySignature.get(signature);
            if (variants == null) { // plain get/put, no lambdas: each one is a class spun at first use
                variants = new ArrayList<>(1);
                bySignature.put(signature, variants);
            }
            variants.add(method);
        }
        List<String> signatures = new ArrayList<>(bySignature.keySet());
        signatures.sort(Comparator.naturalOrder());
        this.methods = new ServiceMethod[signatures.size()];
        List<Binding> allBindings = new ArrayList<>();
        Map<String, List<ServiceMethod>> names = new HashMap<>();
        for (int i = 0; i < methods.length; i++) {
            List<Method> variants = bySignature.get(signatures.get(i));
            methods[i] = new ServiceMethod(i, type, mostSpecific(variants), variants);
            List<ServiceMethod> sameName = names.get(methods[i].name());
            if (sameName == null) {
                sameName = new ArrayList<>(1);
                names.put(methods[i].name(), sameName);
            }
            sameName.add(methods[i]);
            List<String> descriptors = new ArrayList<>();
            for (Method variant : variants) {
                String descriptor = Descriptors.methodDescriptor(variant.getReturnType(), variant.getParameterTypes());
                if (!descriptors.contains(descriptor)) {
                    descriptors.add(descriptor);
                    allBindings.add(new Binding(variant, i));
                }
            }
        }
        Map<String, ServiceMethod[]> index = new HashMap<>();
        for (Map.Entry<String, List<ServiceMethod>> entry : names.entrySet()) {
            index.put(entry.getKey(), entry.getValue().toArray(new ServiceMethod[0]));
        }
        this.byName = Map.copyOf(index);
        this.bindings = List.copyOf(allBindings);
    }

    /** The table of {@code type}, built once per interface. */
    public static ServiceMethods of(Class<?> type) {
        Objects.requireNonNull(type, "type");
        return CACHE.get(type);
    }

    /** Whether {@code method} is {@code equals(Object)}, {@code hashCode()} or {@code toString()}. */
    public static boolean isObjectMethod(Method method) {
        String name = method.getName();
        int count = method.getParameterCount();
        return count == 0 && (name.equals("hashCode") || name.equals("toString"))
                || count == 1 && name.equals("equals") && method.getParameterTypes()[0] == Object.class;
    }

    private static Method mostSpecific(List<Method> variants) {
        Method best = variants.get(0);
        for (Method candidate : variants) {
            if (best.getReturnType().isAssignableFrom(candidate.getReturnType())) {
                best = candidate;
            }
        }
        return best;
    }

    public Class<?> type() {
        return type;
    }

    public int size() {
        return methods.length;
    }

    /** The method at {@code index}. */
    public ServiceMethod get(int index) {
        return methods[index];
    }

    /** The method with this name and exactly these parameter types, or {@code null}. */
    public ServiceMethod find(String name, Class<?>[] parameterTypes) {
        ServiceMethod[] candidates = byName.get(name);
        if (candidates != null) {
            for (ServiceMethod candidate : candidates) {
                if (Arrays.equals(candidate.parameterTypes(), parameterTypes)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    /** Every interface method descriptor a generated class must implement, with its index. */
    public List<Binding> bindings() {
        return bindings;
    }

    /** The signatures of all methods, in index order: {@code [add(int, int), name()]}. */
    public List<String> signatures() {
        List<String> list = new ArrayList<>(methods.length);
        for (ServiceMethod method : methods) {
            list.add(method.signature());
        }
        return list;
    }

    @Override
    public String toString() {
        return type.getName() + signatures();
    }
}
