package dev.weft.rpc.mock;

import com.google.common.reflect.TypeToken;
import dev.weft.rpc.common.AsyncTypes;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.internal.MockAction;
import dev.weft.rpc.mock.internal.MockExpression;
import dev.weft.rpc.mock.internal.MockExpressionParser;
import dev.weft.rpc.mock.internal.MockSyntaxException;

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
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The mock configuration of one consumer URL, checked against the service interface, as an
 * {@link Invoker} that answers calls from it.
 *
 * <p>Built from the {@code mock} key (interface level) and the {@code <method>.mock} keys (method
 * level, which win; {@code sayHello.mock=false} turns the interface-level mock off for
 * {@code sayHello}). Building checks everything a later outage would need: the expression
 * syntax, the {@code throw} and mock classes (loaded without initialisation and type-checked),
 * and that every {@code return} value can become each method's generic return type. All
 * problems are reported together in one {@link MockConfigurationException}.
 *
 * <p>{@link #invoke(Invocation)} answers as the mock would in force mode: with the value, the
 * exception (as a {@link Result}, like a business exception) or the mock class's answer. When the
 * mock itself cannot answer (a mock class constructor throws, a mock-class invoker fails) the
 * {@link RpcException} thrown carries the call's original failure as its cause and the mock's
 * failure as suppressed.
 *
 * <p>Immutable and thread-safe; one instance serves all threads until the URL changes.
 */
public final class MockInvoker<T> implements Invoker<T> {

    /** The URL key of the mock expression; {@code <method>.mock} overrides it per method. */
    public static final String MOCK_KEY = "mock";

    private static final String METHOD_KEY_SUFFIX = "." + MOCK_KEY;

    private final Class<T> type;
    private final URL url;
    private final LazyConverter converter;
    private final MockInstances instances;
    /** Per method name, the mocks aligned with {@link #methods}; an entry is null where no mock applies. */
    private final Map<String, MethodMock[]> mocks;
    private final Map<String, Method[]> methods;
    /** The parameter types of {@link #methods}, kept so overloads are matched without copying arrays. */
    private final Map<String, Class<?>[][]> parameterTypes;
    /** The interface-level expression, for methods not in the interface; null when none. */
    private final MockExpression interfaceLevel;
    private final boolean empty;

    private MockInvoker(Class<T> type, URL url, LazyConverter converter, MockInstances instances,
                        Map<String, MethodMock[]> mocks, Map<String, Method[]> methods, MockExpression interfaceLevel) {
        this.type = type;
        this.url = url;
        this.converter = converter;
        this.instances = instances;
        this.mocks = mocks;
        this.methods = methods;
        Map<String, Class<?>[][]> signatures = new HashMap<>();
        for (Map.Entry<String, Method[]> entry : methods.entrySet()) { // loops, not lambdas: cheaper first join
            Method[] overloads = entry.getValue();
            Class<?>[][] types = new Class<?>[overloads.length][];
            for (int i = 0; i < overloads.length; i++) {
                types[i] = overloads[i].getParameterTypes();
            }
            signatures.put(entry.getKey(), types);
        }
        this.parameterTypes = Map.copyOf(signatures);
        this.interfaceLevel = interfaceLevel;
        this.empty = mocks.isEmpty() && interfaceLevel == null;
    }

    /**
     * Parses and checks the mock keys of {@code url} against {@code type}.
     *
     * @throws MockConfigurationException listing every problem found
     */
    static <T> MockInvoker<T> create(Class<T> type, URL url, MockSupport support) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(support, "support");
        return new Checker<>(type, url, support).check();
    }

    /** Whether no mock applies to any method: calls go straight through. */
    public boolean isEmpty() {
        return empty;
    }

    /** The mode in force for {@code invocation}, or empty when it goes straight to the cluster. */
    public Optional<MockMode> modeFor(Invocation invocation) {
        MethodMock mock = find(invocation);
        return mock == null ? Optional.empty() : Optional.of(mock.mode());
    }

    /** The checked mock of the invoked method, or {@code null} for no mock. */
    MethodMock find(Invocation invocation) {
        if (empty) {
            return null;
        }
        MethodMock[] candidates = mocks.get(invocation.getMethodName());
        if (candidates != null) {
            if (candidates.length == 1) {
                return candidates[0];
            }
            Class<?>[][] signatures = parameterTypes.get(invocation.getMethodName());
            for (int i = 0; i < signatures.length; i++) {
                if (Arrays.equals(signatures[i], invocation.getParameterTypes())) {
                    return candidates[i];
                }
            }
        } else if (methods.containsKey(invocation.getMethodName())) {
            return null;
        }
        return interfaceLevel == null ? null : forUndeclared(invocation);
    }

    /** A mock compiled on the fly for a method the interface does not declare (or an unknown overload). */
    private MethodMock forUndeclared(Invocation invocation) {
        try {
            return new MethodMock(MOCK_KEY, interfaceLevel, Checker.answer(interfaceLevel, type, converter, instances,
                    AsyncTypes.valueType(invocation.getGenericReturnType()), null, null));
        } catch (Rejection r) {
            String message = MockConfigurationException.at(MOCK_KEY, interfaceLevel.text(), r.position(),
                    r.expected() + " for " + RpcInvocation.signature(invocation), r.detail()).getMessage();
            return new MethodMock(MOCK_KEY, interfaceLevel, MethodMock.rejecting(message));
        }
    }

    /**
     * Answers {@code invocation} from the mock, as in force mode.
     *
     * @throws RpcException when no mock applies to the method, or the mock cannot answer
     */
    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        MethodMock mock = find(invocation);
        if (mock == null) {
            throw new RpcException(RpcException.FORBIDDEN_EXCEPTION, "No mock for " + type.getName() + "."
                    + RpcInvocation.signature(invocation) + " (expected: a '" + MOCK_KEY + "' or '"
                    + invocation.getMethodName() + METHOD_KEY_SUFFIX + "' key in " + url + ")");
        }
        return answer(mock, invocation, null);
    }

    /**
     * Answers {@code invocation} with {@code mock}; {@code failure} is the call's own failure in
     * fail mode.
     *
     * @throws RpcException when the mock cannot answer, carrying both failures
     */
    Result answer(MethodMock mock, Invocation invocation, RpcException failure) {
        try {
            return mock.answer(invocation, url, failure);
        } catch (RuntimeException | LinkageError e) {
            throw mockFailed(mock, invocation, failure, e);
        }
    }

    /** The error thrown when the mock itself fails: the call's failure as cause, the mock's as suppressed. */
    RpcException mockFailed(MethodMock mock, Invocation invocation, RpcException failure, Throwable mockError) {
        String method = type.getName() + "." + RpcInvocation.signature(invocation);
        if (failure == null) {
            return new RpcException(RpcException.UNKNOWN_EXCEPTION, "Mock " + mock + " could not answer " + method
                    + ": " + mockError, mockError);
        }
        RpcException combined = new RpcException(failure.getCode(), "Mock " + mock + " could not answer " + method
                + " after the call failed with: " + failure.getMessage() + "; the mock failed with: " + mockError, failure);
        combined.addSuppressed(mockError);
        return combined;
    }

    @Override
    public Class<T> getInterface() {
        return type;
    }

    /** The consumer URL this configuration was read from. */
    @Override
    public URL getUrl() {
        return url;
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public void destroy() {
        // mock-class instances and the converter are plain objects, collected with this invoker
    }

    /** Whether this invoker built a value converter (and so a Jackson mapper). */
    boolean converterCreated() {
        return converter.created();
    }

    /** How many mock-class instances this invoker has created. */
    int mockInstances() {
        return instances.size();
    }

    @Override
    public String toString() {
        return "MockInvoker[" + type.getName() + (empty ? ", no mock" : ", " + describe()) + "]";
    }

    private String describe() {
        List<String> parts = new ArrayList<>();
        if (interfaceLevel != null) {
            parts.add(MOCK_KEY + "=" + interfaceLevel.text().strip());
        }
        for (MethodMock[] forName : mocks.values()) {
            for (MethodMock mock : forName) {
                if (mock != null && !mock.key().equals(MOCK_KEY) && !parts.contains(mock.toString())) {
                    parts.add(mock.toString());
                }
            }
        }
        return String.join(", ", parts);
    }

    /** One check of a URL against an interface, collecting every problem. */
    private static final class Checker<T> {
        private final Class<T> type;
        private final URL url;
        private final LazyConverter converter = new LazyConverter();
        private final MockInstances instances;
        private final List<String> problems = new ArrayList<>();
        private final List<String> problemKeys = new ArrayList<>();
        /** Interface-level rejections, one line per method. */
        private final List<String> interfaceRejections = new ArrayList<>();
        private Rejection firstInterfaceRejection;

        Checker(Class<T> type, URL url, MockSupport support) {
            this.type = type;
            this.url = url;
            this.instances = new MockInstances(support.invokers());
        }

        MockInvoker<T> check() {
            Map<String, Method[]> methods = declaredMethods(type);
            MockExpression interfaceLevel = parse(MOCK_KEY, url.getParameter(MOCK_KEY)).orElse(null);
            Map<String, Optional<MockExpression>> methodLevel = new HashMap<>();
            for (Map.Entry<String, String> parameter : url.getParameters().entrySet()) {
                String key = parameter.getKey();
                if (!key.endsWith(METHOD_KEY_SUFFIX) || key.length() == METHOD_KEY_SUFFIX.length()) {
                    continue;
                }
                String method = key.substring(0, key.length() - METHOD_KEY_SUFFIX.length());
                if (!methods.containsKey(method)) {
                    problem(key, key + ": " + MockConfigurationException.abbreviate(parameter.getValue())
                            + " (expected: a key <method>.mock naming a method of " + type.getName() + ": "
                            + new TreeSet<>(methods.keySet()) + "; found no method '" + method + "')");
                    continue;
                }
                methodLevel.put(method, parse(key, parameter.getValue()));
            }

            Map<String, MethodMock[]> mocks = new HashMap<>();
            for (Map.Entry<String, Method[]> entry : methods.entrySet()) {
                String name = entry.getKey();
                boolean methodKey = methodLevel.containsKey(name);
                MockExpression expression = methodKey ? methodLevel.get(name).orElse(null) : interfaceLevel;
                if (expression == null) {
                    continue;
                }
                String key = methodKey ? name + METHOD_KEY_SUFFIX : MOCK_KEY;
                Object resolvedClass;
                try {
                    resolvedClass = resolved(expression);
                } catch (Rejection r) {
                    String message = MockConfigurationException.at(key, expression.text().strip(),
                            position(expression, r), r.expected(), r.detail()).getMessage();
                    if (!problems.contains(message)) {
                        problem(key, message);
                    }
                    continue;
                }
                Method[] overloads = entry.getValue();
                MethodMock[] compiled = new MethodMock[overloads.length];
                for (int i = 0; i < overloads.length; i++) {
                    Method method = overloads[i];
                    try {
                        compiled[i] = new MethodMock(key, expression, answer(expression, type, converter, instances,
                                AsyncTypes.valueType(TypeToken.of(type).resolveType(method.getGenericReturnType()).getType()), method,
                                resolvedClass));
                    } catch (Rejection r) {
                        reject(methodKey, key, expression, method, r);
                    }
                }
                mocks.put(name, compiled);
            }
            if (!interfaceRejections.isEmpty()) {
                problem(MOCK_KEY, MOCK_KEY + ": " + MockConfigurationException.abbreviate(interfaceLevel.text().strip())
                        + " (expected: a mock that every method of " + type.getName() + " can take"
                        + (firstInterfaceRejection.position() >= 0 ? "; at column " + (firstInterfaceRejection.position() + 1) : "")
                        + ": " + interfaceRejections.size() + " method" + (interfaceRejections.size() == 1 ? "" : "s")
                        + " cannot)\n" + String.join("\n", interfaceRejections));
            }
            if (!problems.isEmpty()) {
                throw new MockConfigurationException(String.join(", ", problemKeys), String.join("\n", problems));
            }
            return new MockInvoker<>(type, url, converter, instances, Map.copyOf(mocks), Map.copyOf(methods), interfaceLevel);
        }

        private final Map<MockExpression, Object> resolvedClasses = new HashMap<>();

        /** The class an expression names, resolved once per expression; a Rejection when unfit. */
        private Object resolved(MockExpression expression) throws Rejection {
            Object cached = resolvedClasses.get(expression);
            if (cached == null) {
                try {
                    cached = resolve(expression, type);
                } catch (Rejection r) {
                    cached = r;
                }
                resolvedClasses.put(expression, cached);
            }
            if (cached instanceof Rejection r) {
                throw r;
            }
            return cached;
        }

        private static Object resolve(MockExpression expression, Class<?> type) throws Rejection {
            MockAction action = expression.action();
            if (action instanceof MockAction.Throw t && t.exceptionClass() != null) {
                return ThrowableFactory.resolve(t.exceptionClass(), type.getClassLoader(), t.position());
            }
            if (action instanceof MockAction.UseMockClass m) {
                return MockClassBinding.resolve(m.mockClass(), type, m.position());
            }
            return Boolean.TRUE;
        }

        private void reject(boolean methodKey, String key, MockExpression expression, Method method, Rejection r) {
            if (methodKey) {
                problem(key, MockConfigurationException.at(key, expression.text().strip(), position(expression, r),
                        r.expected() + " for " + signature(method), r.detail()).getMessage());
                return;
            }
            if (firstInterfaceRejection == null) {
                firstInterfaceRejection = new Rejection(r.expected(), position(expression, r), r.detail());
            }
            interfaceRejections.add("  - " + signature(method) + ": " + r.expected() + "; " + r.detail()
                    + " (set " + method.getName() + METHOD_KEY_SUFFIX + " to give " + method.getName() + " its own mock)");
        }

        /** Positions are into the raw text; the message shows it stripped, so shift by the leading blanks. */
        private static int position(MockExpression expression, Rejection r) {
            if (r.position() < 0) {
                return r.position();
            }
            String text = expression.text();
            int lead = text.length() - text.stripLeading().length();
            return Math.max(0, r.position() - lead);
        }

        private Optional<MockExpression> parse(String key, String value) {
            if (value == null) {
                return Optional.empty(); // no key: keep the parser (and its JSON support) unloaded
            }
            try {
                return MockExpressionParser.parse(key, value);
            } catch (MockSyntaxException e) {
                problem(key, e.getMessage());
                return Optional.empty();
            }
        }

        private void problem(String key, String message) {
            problems.add(message);
            if (!problemKeys.contains(key)) {
                problemKeys.add(key);
            }
        }

        /**
         * Compiles {@code expression} for a method with {@code returnType}; {@code method} is null
         * for one the interface does not declare, {@code resolvedClass} null to resolve here.
         */
        static MethodMock.Answer answer(MockExpression expression, Class<?> type, LazyConverter converter,
                                        MockInstances instances, java.lang.reflect.Type returnType, Method method,
                                        Object resolvedClass) throws Rejection {
            MockAction action = expression.action();
            Object resolved = resolvedClass != null ? resolvedClass : resolve(expression, type);
            if (action instanceof MockAction.Return r) {
                Supplier<Object> value = converter.get().compile(r.value(), returnType, r.position());
                return MethodMock.returning(value);
            }
            if (action instanceof MockAction.Throw t) {
                if (t.exceptionClass() == null) {
                    return MethodMock.throwingRpcException(type);
                }
                ThrowableFactory factory = (ThrowableFactory) resolved;
                if (method != null && !factory.fits(method)) {
                    throw new Rejection("an unchecked exception or one declared by the method", t.position(),
                            factory.type().getName() + " is checked and " + method.getName() + " declares "
                                    + (method.getExceptionTypes().length == 0 ? "none"
                                    : Arrays.toString(Arrays.stream(method.getExceptionTypes()).map(Class::getName).toArray())));
                }
                return MethodMock.throwing(factory, type);
            }
            return delegating((MockClassBinding) resolved, type, instances);
        }

        private static <S> MethodMock.Answer delegating(MockClassBinding binding, Class<S> type, MockInstances instances) {
            return MethodMock.delegatingTo(binding, type, instances);
        }

        private static String signature(Method method) {
            StringBuilder sb = new StringBuilder(method.getName()).append('(');
            Class<?>[] parameters = method.getParameterTypes();
            for (int i = 0; i < parameters.length; i++) {
                sb.append(i == 0 ? "" : ", ").append(parameters[i].getSimpleName());
            }
            return sb.append(')').toString();
        }

        private static Map<String, Method[]> declaredMethods(Class<?> type) {
            Map<String, List<Method>> byName = new LinkedHashMap<>();
            for (Method method : type.getMethods()) {
                if (Modifier.isStatic(method.getModifiers()) || method.isSynthetic() || method.isBridge()
                        || answeredByTheProxy(method)) {
                    continue;
                }
                List<Method> overloads = byName.get(method.getName());
                if (overloads == null) {
                    overloads = new ArrayList<>(1);
                    byName.put(method.getName(), overloads);
                }
                addMostSpecific(overloads, method);
            }
            Map<String, Method[]> result = new TreeMap<>();
            for (Map.Entry<String, List<Method>> entry : byName.entrySet()) {
                List<Method> overloads = entry.getValue();
                overloads.sort(BY_SIGNATURE);
                result.put(entry.getKey(), overloads.toArray(new Method[0]));
            }
            return result;
        }

        /**
         * Adds {@code method} to its overloads, ahead of those with the same parameter types when
         * its return type is more specific: an interface inheriting {@code Object value()} and
         * {@code String value()} is called (and so mocked) as returning {@code String}, while
         * every variant is still checked, so a {@code throw} must fit the throws clause of each.
         */
        private static void addMostSpecific(List<Method> overloads, Method method) {
            for (int i = 0; i < overloads.size(); i++) {
                Method known = overloads.get(i);
                if (Arrays.equals(known.getParameterTypes(), method.getParameterTypes())) {
                    boolean moreSpecific = known.getReturnType() != method.getReturnType()
                            && known.getReturnType().isAssignableFrom(method.getReturnType());
                    overloads.add(moreSpecific ? i : overloads.size(), method);
                    return;
                }
            }
            overloads.add(method);
        }

        /**
         * Whether {@code method} is {@code equals(Object)}, {@code hashCode()} or {@code toString()}:
         * a proxy answers those itself, even when the interface redeclares them, so no call ever
         * reaches a mock for them.
         */
        private static boolean answeredByTheProxy(Method method) {
            String name = method.getName();
            int count = method.getParameterCount();
            return count == 0 && (name.equals("hashCode") || name.equals("toString"))
                    || count == 1 && name.equals("equals") && method.getParameterTypes()[0] == Object.class;
        }

        private static final Comparator<Method> BY_SIGNATURE = new BySignature();

        /** Orders overloads by {@link #signature(Method)}. */
        private static final class BySignature implements Comparator<Method> {
            @Override
            public int compare(Method a, Method b) {
                return signature(a).compareTo(signature(b));
            }
        }
    }
}
