package dev.weft.rpc.common;

/** The immutable, thread-safe {@link Result}. */
public final class RpcResult implements Result {

    private static final RpcResult NULL_VALUE = new RpcResult(null, null);

    private final Object value;
    private final Throwable exception;

    private RpcResult(Object value, Throwable exception) {
        this.value = value;
        this.exception = exception;
    }

    /** A result carrying {@code value} (may be {@code null}). */
    public static RpcResult of(Object value) {
        return value == null ? NULL_VALUE : new RpcResult(value, null);
    }

    /** A result carrying {@code exception}, which must not be {@code null}. */
    public static RpcResult ofException(Throwable exception) {
        if (exception == null) {
            throw new IllegalArgumentException("exception: null (expected: a Throwable)");
        }
        return new RpcResult(null, exception);
    }

    @Override
    public Object getValue() {
        return value;
    }

    @Override
    public Throwable getException() {
        return exception;
    }

    @Override
    public boolean hasException() {
        return exception != null;
    }

    @Override
    public Object recreate() throws Throwable {
        if (exception != null) {
            throw exception;
        }
        return value;
    }

    @Override
    public String toString() {
        return exception != null ? "RpcResult[exception=" + exception + "]" : "RpcResult[value=" + value + "]";
    }
}
