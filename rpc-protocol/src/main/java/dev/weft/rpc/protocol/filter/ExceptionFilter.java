package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Results;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;

import java.lang.reflect.Method;
import java.security.CodeSource;
import java.util.Objects;

/**
 * Provider filter {@value #NAME}: makes sure every exception a service answers with is one the
 * consumer can re-create, and that none tells the consumer the service did not run. Passed
 * through unchanged: an {@link RpcException} other than {@link RpcException#NOT_PROCESSED
 * NOT_PROCESSED}; an exception the
 * method declares in its {@code throws} clause (or a subclass); an unchecked exception or error
 * of the JDK (loaded by the boot or platform class loader); an unchecked exception or error from
 * the same jar (code source) as the service interface, which every consumer has. Anything else
 * (an undeclared checked exception, an unchecked one from a library the consumer may lack) is
 * replaced by an {@link RpcException} {@link RpcException#BIZ_EXCEPTION BIZ_EXCEPTION} whose
 * message is {@code "<class name>: <message>"} and which keeps the original stack trace but not
 * the original object (its class may not exist on the other side). The message is cut to
 * {@value #MAX_MESSAGE_CHARS} characters, so that the answer fits a response frame; a message
 * whose {@code getMessage()} throws is replaced by a note saying so.
 *
 * <p>An {@code RpcException} in an answer came out of the service's code, so the service ran. A
 * {@code NETWORK_EXCEPTION} or {@code TIMEOUT_EXCEPTION} passes on with its code, which is how a
 * service reports that a link it depends on failed. A {@code NOT_PROCESSED} one (a nested call's
 * "server busy") would tell this service's consumer that this call was not run, and every cluster
 * strategy, {@code failfast} included, would run it again elsewhere: it becomes a
 * {@code NETWORK_EXCEPTION} with the same message, marked as such. Refusals by filters are thrown,
 * not answered, and keep their codes.
 *
 * <p>No URL keys; always on for providers (remove it with {@code filter=-exception}). Stateless
 * and thread-safe.
 */
@Activate(group = FilterChain.PROVIDER, order = -5_000)
public final class ExceptionFilter implements Filter {

    /** The extension name. */
    public static final String NAME = "exception";
    /** The most characters of the original message a replacement keeps. */
    static final int MAX_MESSAGE_CHARS = 8192;

    @Override
    public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
        return Results.then(next.invoke(invocation), (result, failure) -> failure != null ? AsyncResult.failed(failure)
                : answer(result, next, invocation));
    }

    /** The answer the consumer gets for the service's {@code result}. */
    private static Result answer(Result result, Invoker<?> next, Invocation invocation) {
        if (!result.hasException()) {
            return result;
        }
        Throwable exception = result.getException();
        if (exception instanceof RpcException rpc && rpc.isNotProcessed()) {
            return replaced(RpcException.NETWORK_EXCEPTION, rpc, messageOf(rpc)
                    + " (NOT_PROCESSED from a call the service made; this call ran)");
        }
        if (exception == null || consumerCanRecreate(exception, next.getInterface(), invocation)) {
            return result;
        }
        return replaced(RpcException.BIZ_EXCEPTION, exception, messageOf(exception));
    }

    /** An answer of {@code exception}'s class name and {@code message}, with {@code code} and its stack trace. */
    private static Result replaced(int code, Throwable exception, String message) {
        RpcException replacement = new RpcException(code, exception.getClass().getName() + ": " + message);
        replacement.setStackTrace(exception.getStackTrace());
        return RpcResult.ofException(replacement);
    }

    /**
     * The exception's message, cut to {@value #MAX_MESSAGE_CHARS} characters; a message that cannot
     * be read (its {@code getMessage()} throws) is said to be so, rather than failing the call with
     * an exception of its own.
     */
    private static String messageOf(Throwable exception) {
        String message;
        try {
            message = exception.getMessage();
        } catch (RuntimeException | LinkageError e) {
            return "(no message: getMessage() threw " + e.getClass().getName() + ": " + e.getMessage() + ")";
        }
        if (message == null || message.length() <= MAX_MESSAGE_CHARS) {
            return message;
        }
        return message.substring(0, MAX_MESSAGE_CHARS) + "... (" + (message.length() - MAX_MESSAGE_CHARS) + " more characters)";
    }

    private static boolean consumerCanRecreate(Throwable exception, Class<?> serviceInterface, Invocation invocation) {
        if (exception instanceof RpcException || isDeclared(exception, serviceInterface, invocation)) {
            return true;
        }
        boolean unchecked = exception instanceof RuntimeException || exception instanceof Error;
        return unchecked && (isJdkClass(exception.getClass()) || sameCodeSource(exception.getClass(), serviceInterface));
    }

    private static boolean isDeclared(Throwable exception, Class<?> serviceInterface, Invocation invocation) {
        if (serviceInterface == null) {
            return false;
        }
        Method method;
        try {
            method = serviceInterface.getMethod(invocation.getMethodName(), invocation.getParameterTypes());
        } catch (NoSuchMethodException e) {
            return false;
        }
        for (Class<?> declared : method.getExceptionTypes()) {
            if (declared.isInstance(exception)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isJdkClass(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        return loader == null || loader == ClassLoader.getPlatformClassLoader();
    }

    private static boolean sameCodeSource(Class<?> type, Class<?> serviceInterface) {
        if (serviceInterface == null) {
            return false;
        }
        CodeSource own = type.getProtectionDomain().getCodeSource();
        CodeSource service = serviceInterface.getProtectionDomain().getCodeSource();
        return own != null && service != null && own.getLocation() != null
                && Objects.equals(own.getLocation(), service.getLocation());
    }
}
