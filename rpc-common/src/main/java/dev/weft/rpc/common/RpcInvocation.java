package dev.weft.rpc.common;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The standard {@link Invocation}.
 *
 * <p>The method identity (name, parameter and return types) is fixed at construction; the
 * attachments map is mutable so filters and clusters can add to it. Not thread-safe for
 * concurrent attachment writes: an invocation belongs to one call.
 */
public class RpcInvocation implements Invocation {

    private static final Class<?>[] NO_TYPES = new Class<?>[0];
    private static final Object[] NO_ARGS = new Object[0];

    private final String methodName;
    private final Class<?>[] parameterTypes;
    private final Object[] arguments;
    private final Class<?> returnType;
    private final Type genericReturnType;
    private Map<String, String> attachments;
    private CallOptions callOptions = CallOptions.DEFAULT;

    /** An invocation of {@code method} with {@code args} ({@code null} means no arguments). */
    public RpcInvocation(Method method, Object[] args) {
        this(Objects.requireNonNull(method, "method").getName(), method.getParameterTypes(), args,
                method.getReturnType(), method.getGenericReturnType());
    }

    /** An invocation by name and signature; the return type is unknown ({@code Object}). */
    public RpcInvocation(String methodName, Class<?>[] parameterTypes, Object[] args) {
        this(methodName, parameterTypes, args, Object.class, Object.class);
    }

    /** An invocation with every part given; used by proxies that resolved the method once. */
    public RpcInvocation(String methodName, Class<?>[] parameterTypes, Object[] args,
                         Class<?> returnType, Type genericReturnType) {
        this.methodName = Objects.requireNonNull(methodName, "methodName");
        this.parameterTypes = parameterTypes == null ? NO_TYPES : parameterTypes;
        this.arguments = args == null ? NO_ARGS : args;
        this.returnType = returnType == null ? Object.class : returnType;
        this.genericReturnType = genericReturnType == null ? this.returnType : genericReturnType;
    }

    @Override
    public String getMethodName() {
        return methodName;
    }

    @Override
    public Class<?>[] getParameterTypes() {
        return parameterTypes;
    }

    @Override
    public Object[] getArguments() {
        return arguments;
    }

    @Override
    public Class<?> getReturnType() {
        return returnType;
    }

    @Override
    public Type getGenericReturnType() {
        return genericReturnType;
    }

    @Override
    public Map<String, String> getAttachments() {
        if (attachments == null) {
            return Collections.emptyMap();
        }
        return Collections.unmodifiableMap(attachments);
    }

    @Override
    public String getAttachment(String key) {
        return attachments == null ? null : attachments.get(key);
    }

    /**
     * A copy of {@code invocation} for another attempt or fork: the same method, arguments and call
     * options, and its own copy of the attachments.
     */
    public static RpcInvocation copyOf(Invocation invocation) {
        RpcInvocation copy = new RpcInvocation(invocation.getMethodName(), invocation.getParameterTypes(), invocation.getArguments(),
                invocation.getReturnType(), invocation.getGenericReturnType());
        invocation.getAttachments().forEach(copy::setAttachment);
        copy.callOptions = invocation.getCallOptions();
        return copy;
    }

    @Override
    public CallOptions getCallOptions() {
        return callOptions;
    }

    /** Replaces the call options (see {@link CallOptions}). */
    public RpcInvocation setCallOptions(CallOptions options) {
        this.callOptions = Objects.requireNonNull(options, "options");
        return this;
    }

    /** Adds or replaces an attachment. */
    public RpcInvocation setAttachment(String key, String value) {
        Objects.requireNonNull(key, "key");
        if (attachments == null) {
            attachments = new HashMap<>();
        }
        attachments.put(key, value);
        return this;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(methodName).append('(');
        for (int i = 0; i < parameterTypes.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(parameterTypes[i].getSimpleName());
        }
        return sb.append(')').append(" args=").append(arguments.length).toString();
    }

    /** The signature, e.g. {@code sayHello(java.lang.String)}, for error messages. */
    public static String signature(Invocation invocation) {
        StringBuilder sb = new StringBuilder(invocation.getMethodName()).append('(');
        Class<?>[] types = invocation.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(types[i].getTypeName());
        }
        return sb.append(')').toString();
    }
}
