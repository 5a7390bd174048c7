package dev.weft.rpc.protocol.weft;

import java.util.List;
import java.util.Map;

/**
 * An exception as it crosses the wire: its class name as text (never loaded by the receiver), its
 * message, its stack, the {@code RpcException} code when it is one (else -1), when its class
 * is not itself declared by the called method but extends one that is, that declared class's name
 * ({@code declaredAs}, else null), and its own fields, each encoded by the service's serialization
 * against the field's declared type ({@link ExceptionFields}; absent from older providers).
 */
record RemoteError(String type, String message, List<StackFrame> stack, int rpcCode, String declaredAs,
                   Map<String, byte[]> fields) {

    /** An error whose class is declared by the method, or extends none it declares, without fields. */
    RemoteError(String type, String message, List<StackFrame> stack, int rpcCode) {
        this(type, message, stack, rpcCode, null, Map.of());
    }

    /** One stack element. */
    record StackFrame(String declaringClass, String methodName, String fileName, int lineNumber) {
    }
}
