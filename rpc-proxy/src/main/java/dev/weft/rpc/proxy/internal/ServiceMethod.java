package dev.weft.rpc.proxy.internal;

import com.google.common.reflect.TypeToken;
import dev.weft.rpc.common.AsyncTypes;
import dev.weft.rpc.common.RpcException;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.List;
import java.util.StringJoiner;

/**
 * One callable method of a service interface, resolved once: its index in
 * {@link ServiceMethods}, signature, and the checks the proxy and invoker apply on every call.
 *
 * <p>Immutable and thread-safe. The arrays it hands out are shared: callers must not modify them.
 */
final class ServiceMethod {

    private final int index;
    private final Method method;
    private final String name;
    private final Class<?>[] parameterTypes;
    private final Class<?>[] boxedParameterTypes;
    private final boolean[] primitiveParameters;
    private final boolean voidReturn;
    private final boolean primitiveReturn;
    private final Class<?> returnType;
    /** The return type as the service interface sees it: {@code String} for {@code T get()} of a {@code Repo<String>}. */
    private final Class<?> resolvedReturnType;
    private final Class<?> boxedReturnType;
    private final Type genericReturnType;
    /** The throws clause of each inherited variant; a checked exception must fit all of them. */
    private final Class<?>[][] exceptionTypes;
    private final String signature;
    private final String qualifiedSignature;
    /** Whether the method returns {@code CompletableFuture<T>} or {@code CompletionStage<T>}. */
    private final boolean async;
    /** What a call's value is decoded as: {@code T} for an async method, else the generic return type. */
    private final Type valueType;
    private final Class<?> valueClass;

    /**
     * {@code method} is the variant with the most specific return type among {@code variants},
     * the methods of the same name and parameter types the interface inherits.
     */
    ServiceMethod(int index, Class<?> serviceType, Method method, List<Method> variants) {
        this.index = index;
        this.method = method;
        this.name = method.getName();
        this.parameterTypes = method.getParameterTypes();
        this.boxedParameterTypes = new Class<?>[parameterTypes.length];
        this.primitiveParameters = new boolean[parameterTypes.length];
        for (int i = 0; i < parameterTypes.length; i++) {
            boxedParameterTypes[i] = Descriptors.box(parameterTypes[i]);
            primitiveParameters[i] = parameterTypes[i].isPrimitive();
        }
        this.returnType = method.getReturnType();
        this.voidReturn = returnType == void.class;
        this.primitiveReturn = returnType.isPrimitive();
        // Type variables of a generic super-interface are resolved against the service interface,
        // so the invocation carries the type a codec needs and the return check sees the real type.
        TypeToken<?> resolved = TypeToken.of(serviceType).resolveType(method.getGenericReturnType());
        this.genericReturnType = resolved.getType();
        this.resolvedReturnType = primitiveReturn || voidReturn ? returnType : resolved.getRawType();
        this.boxedReturnType = Descriptors.box(resolvedReturnType);
        this.exceptionTypes = new Class<?>[variants.size()][];
        for (int i = 0; i < exceptionTypes.length; i++) {
            exceptionTypes[i] = variants.get(i).getExceptionTypes();
        }
        this.signature = signature(name, parameterTypes);
        this.qualifiedSignature = serviceType.getName() + '.' + signature;
        this.async = AsyncTypes.isAsync(returnType);
        this.valueType = async ? AsyncTypes.valueType(genericReturnType) : genericReturnType;
        this.valueClass = async ? Descriptors.box(AsyncTypes.valueClass(genericReturnType)) : boxedReturnType;
    }

    /** Whether the method returns {@code CompletableFuture<T>} or {@code CompletionStage<T>}: the proxy returns at once. */
    public boolean isAsync() {
        return async;
    }

    /** The type of the value a call carries: {@code T} for an async method, else {@link #genericReturnType()}. */
    public Type valueType() {
        return valueType;
    }

    /** The raw class of {@link #valueType()}. */
    public Class<?> valueClass() {
        return async ? AsyncTypes.valueClass(genericReturnType) : resolvedReturnType;
    }

    /**
     * The value an async call's future completes with, once checked against {@code T}.
     *
     * @throws RpcException for a value of another type
     */
    Object checkAsyncValue(Object value) {
        if (value == null || valueClass.isInstance(value)) {
            return value;
        }
        throw new RpcException("Result of " + qualifiedSignature + ": " + value.getClass().getName()
                + " (expected: an instance of " + valueType.getTypeName() + ")");
    }

    /** {@code name(type, type)} with fully qualified parameter type names. */
    static String signature(String name, Class<?>[] parameterTypes) {
        StringJoiner joiner = new StringJoiner(", ", name + "(", ")");
        for (Class<?> type : parameterTypes) {
            joiner.add(type.getTypeName());
        }
        return joiner.toString();
    }

    /** The position of this method in its {@link ServiceMethods}. */
    public int index() {
        return index;
    }

    /** The interface method (the one with the most specific return type among covariant twins). */
    public Method method() {
        return method;
    }

    public String name() {
        return name;
    }

    /** The parameter types; shared, do not modify. */
    public Class<?>[] parameterTypes() {
        return parameterTypes;
    }

    public Class<?> returnType() {
        return returnType;
    }

    /** The generic return type with the service interface's type arguments substituted. */
    public Type genericReturnType() {
        return genericReturnType;
    }

    /** {@code name(java.lang.String, int)}. */
    public String signature() {
        return signature;
    }

    /** {@code com.example.Greeter.name(java.lang.String, int)}. */
    public String qualifiedSignature() {
        return qualifiedSignature;
    }

    /**
     * What the proxy throws for {@code thrown}: the same instance when it is unchecked or
     * declared by the method (by every inherited variant of it: an interface inheriting
     * {@code run() throws IOException} and {@code run() throws TimeoutException} may throw
     * neither), otherwise an {@link UndeclaredThrowableException} wrapping it.
     */
    Throwable translate(Throwable thrown) {
        if (thrown instanceof RuntimeException || thrown instanceof Error) {
            return thrown;
        }
        for (Class<?>[] declaredByVariant : exceptionTypes) {
            if (!declares(declaredByVariant, thrown)) {
                return new UndeclaredThrowableException(thrown, qualifiedSignature
                        + " threw undeclared checked exception " + thrown.getClass().getName());
            }
        }
        return thrown;
    }

    private static boolean declares(Class<?>[] declared, Throwable thrown) {
        for (Class<?> type : declared) {
            if (type.isInstance(thrown)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The value the proxy returns for {@code value}: {@code null} for {@code void}, else the
     * value itself once checked against the return type.
     *
     * @throws RpcException for {@code null} with a primitive return type, or a value of another type
     */
    Object checkReturnValue(Object value) {
        if (voidReturn) {
            return null;
        }
        if (value == null ? !primitiveReturn : boxedReturnType.isInstance(value)) {
            return value;
        }
        throw badReturnValue(value);
    }

    private RpcException badReturnValue(Object value) {
        if (value == null) {
            return new RpcException("Result of " + qualifiedSignature + ": null (expected: "
                    + Descriptors.article(returnType) + ", the primitive return type cannot be null)");
        }
        return new RpcException("Result of " + qualifiedSignature + ": " + value.getClass().getName()
                + " (expected: an instance of " + resolvedReturnType.getTypeName() + ")");
    }

    /**
     * Checks that {@code args} fit the parameter types, so the dispatcher never fails on a
     * cast or unboxing of its own.
     *
     * @throws RpcException naming the argument position, the method and the expected type
     */
    void checkArguments(Object[] args) {
        if (!argumentsFit(args)) {
            throw badArguments(args);
        }
    }

    private boolean argumentsFit(Object[] args) {
        if (args == null) {
            return parameterTypes.length == 0;
        }
        if (args.length != parameterTypes.length) {
            return false;
        }
        for (int i = 0; i < args.length; i++) {
            Object arg = args[i];
            if (arg == null ? primitiveParameters[i] : !boxedParameterTypes[i].isInstance(arg)) {
                return false;
            }
        }
        return true;
    }

    private RpcException badArguments(Object[] args) {
        int count = args == null ? 0 : args.length;
        if (count != parameterTypes.length) {
            return new RpcException("Arguments of " + qualifiedSignature + ": " + count
                    + (count == 1 ? " value" : " values") + " (expected: " + parameterTypes.length + ")");
        }
        for (int i = 0; i < count; i++) {
            Object arg = args[i];
            if (arg == null && parameterTypes[i].isPrimitive()) {
                return new RpcException("Argument " + i + " of " + qualifiedSignature + ": null (expected: "
                        + Descriptors.article(parameterTypes[i]) + ")");
            }
            if (arg != null && !boxedParameterTypes[i].isInstance(arg)) {
                return new RpcException("Argument " + i + " of " + qualifiedSignature + ": "
                        + arg.getClass().getName() + " (expected: an instance of "
                        + parameterTypes[i].getTypeName() + ")");
            }
        }
        return new RpcException("Arguments of " + qualifiedSignature + ": fit (expected: a misfit)");
    }

    @Override
    public String toString() {
        return qualifiedSignature;
    }
}
