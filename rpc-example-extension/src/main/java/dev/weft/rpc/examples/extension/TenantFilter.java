package dev.weft.rpc.examples.extension;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.spi.Activate;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code tenant}: a provider filter that serves only the tenant a provider is exported for.
 *
 * <p>A provider exported with {@code tenant=acme} accepts a call only when the call carries the
 * attachment {@code tenant} with the same value (compared exactly); any other call fails with an
 * {@link RpcException} coded {@code FORBIDDEN_EXCEPTION} before the service runs. A provider
 * without the key is not filtered. The filter activates itself on the provider side when the
 * key is present ({@code @Activate(group = "provider", value = "tenant")}); {@code filter=-tenant}
 * turns it off.
 *
 * <p>It also shows how a filter sees the <em>end</em> of a call, sync or async alike: the calls it
 * admitted are counted in flight ({@link #inFlight()}) until their result ends, observed with
 * {@link Result#whenComplete} on what {@code next.invoke} returns, not when {@code invoke} returns
 * (an async implementation's call ends when its future completes).
 *
 * <p>Thread-safe; its only state is that count.
 */
@Activate(group = "provider", value = TenantFilter.TENANT_KEY)
public class TenantFilter implements Filter {

    /** The name this filter is registered under. */
    public static final String NAME = "tenant";
    /** Provider URL key (the tenant served) and call attachment (the caller's tenant). */
    public static final String TENANT_KEY = "tenant";

    private final AtomicInteger inFlight = new AtomicInteger();

    /** The instance the extension loader creates. */
    public TenantFilter() {
    }

    /** Calls this filter admitted for a tenant-bound provider whose result has not ended yet. */
    public int inFlight() {
        return inFlight.get();
    }

    @Override
    public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
        String served = next.getUrl().getParameter(TENANT_KEY, "");
        if (!served.isEmpty()) {
            String caller = invocation.getAttachment(TENANT_KEY);
            if (!served.equals(caller)) {
                throw new RpcException(RpcException.FORBIDDEN_EXCEPTION, "tenant attachment of method "
                        + invocation.getMethodName() + ": " + (caller == null ? "absent" : "'" + caller + "'")
                        + " (expected: '" + served + "', the tenant of provider " + next.getUrl().getAddress() + ")");
            }
            inFlight.incrementAndGet();
            // inside a chain next.invoke never throws: every outcome, failures included, ends the result
            return next.invoke(invocation).whenComplete((result, failure) -> inFlight.decrementAndGet());
        }
        return next.invoke(invocation);
    }

    @Override
    public String toString() {
        return NAME;
    }
}
