package dev.weft.rpc.common;

/** The immutable, thread-safe, finished {@link Result}: a value or the service's exception. */
public final class RpcResult implements Result {

    private static final RpcResult NULL_VALUE = new RpcResult(null, null, false);

    private final Object value;
    private final Throwable exception;
    private final boolean mocked;

    private RpcResult(Object value, Throwable exception, boolean mocked) {
        this.value = value;
        this.exception = exception;
        this.mocked = mocked;
    }

    /** A result carrying {@code value} (may be {@code null}). */
    public static RpcResult of(Object value) {
        return value == null ? NULL_VALUE : new RpcResult(value, null, false);
    }

    /** A result carrying {@code exception}, which must not be {@code null}. */
    public static RpcResult ofException(Throwable exception) {
        return new RpcResult(null, checked(exception), false);
    }

    /** A result the mock answered with {@code value} ({@link #isMocked()} true). */
    public static RpcResult mocked(Object value) {
        return new RpcResult(value, null, true);
    }

    /** A result the mock answered with {@code exception} ({@link #isMocked()} true). */
    public static RpcResult mockedException(Throwable exception) {
        return new RpcResult(null, checked(exception), true);
    }

    private static Throwable checked(Throwable exception) {
        if (exception == null) {
            throw new IllegalArgumentException("exception: null (expected: a Throwable)");
        }
        return exception;
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
    public boolean isMocked() {
        return mocked;
    }

    @Override
    public String toString() {
        String mark = mocked ? "mocked " : "";
        return exception != null ? "RpcResult[" + mark + "exception=" + exception + "]" : "RpcResult[" + mark + "value=" + value + "]";
    }
}
