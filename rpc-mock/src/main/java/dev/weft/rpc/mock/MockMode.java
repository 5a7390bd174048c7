package dev.weft.rpc.mock;

/** When a mock answers a call. */
public enum MockMode {

    /** The provider is not called; the mock answers every call ({@code force:}). */
    FORCE,

    /**
     * The cluster is called first; the mock answers only when the call fails with a
     * non-business {@link dev.weft.rpc.common.RpcException} ({@code fail:} or no prefix).
     */
    FAIL
}
