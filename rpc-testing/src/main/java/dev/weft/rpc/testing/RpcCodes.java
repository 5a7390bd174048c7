package dev.weft.rpc.testing;

import dev.weft.rpc.common.RpcException;

/** Words for {@link RpcException} codes in the kit's messages. */
final class RpcCodes {

    private static final String[] NAMES = {
        "unknown failure", "network failure", "timeout", "business failure", "forbidden call",
        "serialization failure", "no invoker available", "not-processed failure",
    };

    private RpcCodes() {
    }

    /**
     * The words for {@code code}.
     *
     * @throws IllegalArgumentException for a code {@link RpcException} does not define
     */
    static String describe(int code) {
        if (code < 0 || code >= NAMES.length) {
            throw new IllegalArgumentException("code: " + code + " (expected: one of RpcException's codes, 0.."
                    + (NAMES.length - 1) + ")");
        }
        return NAMES[code];
    }
}
