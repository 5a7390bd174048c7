package dev.weft.rpc.protocol.weft;

import java.util.List;

/**
 * An exception as it crosses the wire: its class name as text (never loaded by the receiver), its
 * message, its stack, the {@code RpcException} code when it is one (else -1), and, when its class
 * is not itself declared by the called method but extends one that is, that declared class's name
 * ({@code declaredAs}, else null).
 */
record RemoteError(String type, String message, List<StackFrame> stack, int rpcCode, String declaredAs) {

    /** An error whose class is declared by the method, or extends none it declares. */
    RemoteError(String type, String message, List<StackFrame> stack, int rpcCode) {
        this(type, message, stack, rpcCode, null);
    }

    /** One stack element. */
    record StackFrame(String declaringClass, String methodName, String fileName, int lineNumber) {
    }
}
