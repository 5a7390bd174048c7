package dev.weft.rpc.protocol.weft;

import com.google.common.collect.ImmutableMap;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Serialization;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * Exceptions across the wire. The provider sends (class name, message, stack, and for a class the
 * method declares, its own fields: {@link ExceptionFields}), and for an
 * exception whose class extends one the called method declares without being declared itself, the
 * name of that declared class. The consumer re-creates the exception only as a class it already
 * holds: one of the called method's declared exception classes (the exception's own, else the
 * declared one it extends, whose message then names the remote class), {@link RpcException}, or
 * one of a fixed list of JDK unchecked exceptions. Any other name becomes an {@link RpcException}
 * (business code) naming the remote class and message. A name from the wire is only ever compared
 * with {@code Class.getName()} of those classes; it is never loaded.
 *
 * <p>Immutable and thread-safe.
 */
final class ExceptionCodec {

    /** At most this many stack elements cross the wire. */
    static final int MAX_STACK = 64;

    /**
     * The JDK unchecked exceptions re-created by name. A holder class, so that the map (and its
     * constructor references) is built when a consumer first reads an error, not at start-up.
     */
    private static final class JdkUnchecked {

        static final Map<String, Function<String, RuntimeException>> BY_NAME =
                ImmutableMap.<String, Function<String, RuntimeException>>builder()
                        .put(IllegalArgumentException.class.getName(), IllegalArgumentException::new)
                        .put(IllegalStateException.class.getName(), IllegalStateException::new)
                        .put(UnsupportedOperationException.class.getName(), UnsupportedOperationException::new)
                        .put(NullPointerException.class.getName(), NullPointerException::new)
                        .put(ArithmeticException.class.getName(), ArithmeticException::new)
                        .put(IndexOutOfBoundsException.class.getName(), IndexOutOfBoundsException::new)
                        .put(ArrayIndexOutOfBoundsException.class.getName(), ArrayIndexOutOfBoundsException::new)
                        .put(StringIndexOutOfBoundsException.class.getName(), StringIndexOutOfBoundsException::new)
                        .put(ClassCastException.class.getName(), ClassCastException::new)
                        .put(NumberFormatException.class.getName(), NumberFormatException::new)
                        .put(NoSuchElementException.class.getName(), NoSuchElementException::new)
                        .put(ConcurrentModificationException.class.getName(), ConcurrentModificationException::new)
                        .put(SecurityException.class.getName(), SecurityException::new)
                        .put(RuntimeException.class.getName(), RuntimeException::new)
                        .build();

        private JdkUnchecked() {
        }
    }

    /** What the provider sends for {@code error}, thrown by a call of {@code method} of a service in {@code serialization}. */
    RemoteError describe(Throwable error, Method method, Serialization serialization) {
        StackTraceElement[] trace = error.getStackTrace();
        List<RemoteError.StackFrame> stack = new ArrayList<>(Math.min(trace.length, MAX_STACK));
        for (int i = 0; i < trace.length && i < MAX_STACK; i++) {
            StackTraceElement e = trace[i];
            stack.add(new RemoteError.StackFrame(e.getClassName(), e.getMethodName(), e.getFileName(),
                    e.getLineNumber()));
        }
        int code = error instanceof RpcException rpc ? rpc.getCode() : -1;
        return new RemoteError(error.getClass().getName(), error.getMessage(), stack, code, declaredAs(error, method),
                isDeclared(error, method) ? ExceptionFields.write(error, serialization) : Map.of());
    }

    /** Whether {@code error}'s own class is one {@code method} declares: only those carry their fields. */
    private static boolean isDeclared(Throwable error, Method method) {
        for (Class<?> declared : method.getExceptionTypes()) {
            if (declared == error.getClass()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The most specific class {@code method} declares that {@code error} is an instance of, when
     * {@code error}'s own class is not declared; else null.
     */
    private static String declaredAs(Throwable error, Method method) {
        Class<?> closest = null;
        for (Class<?> declared : method.getExceptionTypes()) {
            if (declared == error.getClass()) {
                return null;
            }
            if (declared.isInstance(error) && (closest == null || closest.isAssignableFrom(declared))) {
                closest = declared;
            }
        }
        return closest == null ? null : closest.getName();
    }

    /** The consumer's exception for {@code error} thrown by a call of {@code method} at {@code remote}. */
    Throwable recreate(RemoteError error, Method method, String remote, Serialization serialization) {
        String type = String.valueOf(error.type());
        String message = error.message();
        Throwable result = null;
        if (type.equals(RpcException.class.getName())) {
            result = new RpcException(error.rpcCode() < 0 ? RpcException.UNKNOWN_EXCEPTION : error.rpcCode(),
                    message);
        }
        Class<?> declared = declaredNamed(method, type);
        if (result == null && declared != null) {
            result = instantiate(declared, message);
            if (declared.isInstance(result)) {
                ExceptionFields.read(result, error.fields(), serialization);
            }
        }
        Class<?> extended = declaredNamed(method, error.declaredAs());
        if (result == null && extended != null) {
            result = instantiate(extended, (message == null ? "" : message + " ") + "(remote " + type + ")");
        }
        if (result == null && JdkUnchecked.BY_NAME.containsKey(type)) {
            result = JdkUnchecked.BY_NAME.get(type).apply(message);
        }
        if (result == null) {
            result = new RpcException(RpcException.BIZ_EXCEPTION,
                    "remote " + type + ": " + message + " (from " + remote + ", method " + method.getName()
                            + "; the class is not declared by the method nor a known JDK exception)");
        }
        result.setStackTrace(stackOf(error));
        return result;
    }

    /** The exception class {@code method} declares whose name is {@code name}, or null (also for a null name). */
    private static Class<?> declaredNamed(Method method, String name) {
        for (Class<?> declared : method.getExceptionTypes()) {
            if (declared.getName().equals(name)) {
                return declared;
            }
        }
        return null;
    }

    private static StackTraceElement[] stackOf(RemoteError error) {
        List<RemoteError.StackFrame> stack = error.stack() == null ? List.of() : error.stack();
        StackTraceElement[] trace = new StackTraceElement[Math.min(stack.size(), MAX_STACK)];
        for (int i = 0; i < trace.length; i++) {
            RemoteError.StackFrame f = stack.get(i);
            trace[i] = new StackTraceElement(String.valueOf(f.declaringClass()), String.valueOf(f.methodName()),
                    f.fileName(), f.lineNumber());
        }
        return trace;
    }

    /** A declared exception class (already loaded by the consumer's own interface) with the message. */
    private static Throwable instantiate(Class<?> declared, String message) {
        try {
            Constructor<?> withMessage = declared.getConstructor(String.class);
            return (Throwable) withMessage.newInstance(message);
        } catch (ReflectiveOperationException | RuntimeException noMessageConstructor) {
            try {
                return (Throwable) declared.getConstructor().newInstance();
            } catch (ReflectiveOperationException | RuntimeException e) {
                return new RpcException(RpcException.BIZ_EXCEPTION, "remote " + declared.getName() + ": " + message
                        + " (the declared class has no public (String) or () constructor)");
            }
        }
    }
}
