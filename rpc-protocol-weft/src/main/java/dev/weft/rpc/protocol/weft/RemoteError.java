package dev.weft.rpc.protocol.weft;

import java.util.List;

/**
 * An exception as it crosses the wire: its class name as text (never loaded by the receiver), its
 * message, its stack, and the {@code RpcException} code when it is one (else -1).
 */
record RemoteError(String type, String message, List<StackFrame> stack, int rpcCode) {

    /** One stack element. */
    record StackFrame(String declaringClass, String methodName, String fileName, int lineNumber) {
    }
}
