package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Objects;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Replies that hand the call to real code: a service implementation, called the way a proxy
 * factory's provider invoker calls it, or another {@link Invoker}. A {@link FakeProvider}
 * answering with one of them runs the real service and still records its calls, holds them
 * ({@link FakeProvider#holdCalls()}) and fails when scripted to: the way to put a fault or a hold
 * in front of a real provider.
 *
 * <pre>{@code
 * FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a")
 *         .answering(DelegatingReplies.implementation(Greeting.class, new GreetingImpl()));
 * a.thenFail(Reply.networkError());   // the next call fails before reaching GreetingImpl
 * }</pre>
 *
 * Stateless; the replies are thread-safe when the implementation or the invoker is.
 */
public final class DelegatingReplies {

    private DelegatingReplies() {
    }

    /**
     * Calls the method of {@code type} named by the invocation (name and parameter types) on
     * {@code implementation}: its return value is the result's value and an exception it throws is
     * carried in the result, as a provider returns a service's exception.
     *
     * @throws IllegalArgumentException when {@code type} is not an interface or {@code implementation} is not one
     * @throws RpcException from the reply when {@code type} has no such method, naming the methods it has
     */
    public static <T> Reply implementation(Class<T> type, T implementation) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(implementation, "implementation");
        checkArgument(type.isInterface(), "type: %s (expected: a service interface)", type.getName());
        checkArgument(type.isInstance(implementation), "implementation: %s (expected: an implementation of %s)",
                implementation.getClass().getName(), type.getName());
        return (invocation, provider) -> {
            Method method = methodOf(type, invocation);
            try {
                return RpcResult.of(method.invoke(implementation, invocation.getArguments()));
            } catch (InvocationTargetException e) {
                return RpcResult.ofException(e.getCause());
            } catch (IllegalAccessException e) {
                throw new RpcException("method: " + method + " (expected: accessible to rpc-testing)", e);
            }
        };
    }

    /** Passes every call to {@code target} and returns what it returns or throws. */
    public static Reply invoker(Invoker<?> target) {
        Objects.requireNonNull(target, "target");
        return (invocation, provider) -> target.invoke(invocation);
    }

    private static Method methodOf(Class<?> type, Invocation invocation) {
        try {
            return type.getMethod(invocation.getMethodName(), invocation.getParameterTypes());
        } catch (NoSuchMethodException e) {
            String[] available = Arrays.stream(type.getMethods()).map(Method::toGenericString).sorted().toArray(String[]::new);
            throw new RpcException("method: " + invocation.getMethodName() + Arrays.toString(invocation.getParameterTypes())
                    + " (expected: a method of " + type.getName() + ", one of " + Arrays.toString(available) + ")", e);
        }
    }
}
