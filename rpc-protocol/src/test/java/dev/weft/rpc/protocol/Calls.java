package dev.weft.rpc.protocol;

import dev.weft.rpc.common.RpcInvocation;

/** Invocations of {@link Greeter}'s methods. */
public final class Calls {

    private Calls() {
    }

    public static RpcInvocation greet(String name) {
        return of("greet", name);
    }

    public static RpcInvocation farewell(String name) {
        return of("farewell", name);
    }

    public static RpcInvocation read(String path) {
        return of("read", path);
    }

    private static RpcInvocation of(String method, String argument) {
        try {
            return new RpcInvocation(Greeter.class.getMethod(method, String.class), new Object[] {argument});
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }
}
