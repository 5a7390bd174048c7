package dev.weft.rpc.common;

import java.lang.reflect.Type;
import java.util.Map;

/** One call of a service method: its name, signature, arguments and attachments. */
public interface Invocation {

    /** The method name, e.g. {@code sayHello}. */
    String getMethodName();

    /** The declared parameter types; never {@code null} (empty for no parameters). */
    Class<?>[] getParameterTypes();

    /** The arguments; never {@code null} (empty for no parameters). */
    Object[] getArguments();

    /** The declared return type, or {@code Object.class} when unknown. */
    Class<?> getReturnType();

    /** The generic return type ({@code List<User>}), or {@link #getReturnType()} when not generic. */
    Type getGenericReturnType();

    /** The attachments (string key/value pairs carried with the call); never {@code null}. */
    Map<String, String> getAttachments();

    /** One attachment, or {@code null} when absent. */
    String getAttachment(String key);

    /** The options of this call (deadline, attempt, view URL, executor, cancellation); {@link CallOptions#DEFAULT} when none were set. */
    default CallOptions getCallOptions() {
        return CallOptions.DEFAULT;
    }
}
