package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.loadbalance.MethodSettings;
import dev.weft.rpc.loadbalance.Picker;

import java.util.List;

/**
 * What the calls of one method use under one directory state, resolved once (when the first call
 * of the method meets the state): the settings, the balancer and the picker built over the state's
 * candidates, the retries, stickiness, and the strategy's own settings. A strategy's
 * {@link AbstractClusterInvoker#doInvoke} receives it with every call.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the service interface
 */
public final class MethodPlan<T> {

    private final MethodSettings settings;
    private final LoadBalance loadBalance;
    private final int retries;
    private final boolean sticky;
    private final boolean availableCheck;
    private final List<Invoker<T>> candidates;
    private final Picker<T> picker;
    private final Object strategySettings;

    MethodPlan(MethodSettings settings, LoadBalance loadBalance, int retries, boolean sticky, boolean availableCheck,
               List<Invoker<T>> candidates, Picker<T> picker, Object strategySettings) {
        this.settings = settings;
        this.loadBalance = loadBalance;
        this.retries = retries;
        this.sticky = sticky;
        this.availableCheck = availableCheck;
        this.candidates = candidates;
        this.picker = picker;
        this.strategySettings = strategySettings;
    }

    /** The method's settings under the state's consumer URL. */
    public MethodSettings settings() {
        return settings;
    }

    /** The state's consumer URL. */
    public URL url() {
        return settings.url();
    }

    public String method() {
        return settings.method();
    }

    public LoadBalance loadBalance() {
        return loadBalance;
    }

    /** Extra attempts ({@code retries}, method level first), never negative. */
    public int retries() {
        return retries;
    }

    /** Whether {@code sticky} is on. */
    public boolean sticky() {
        return sticky;
    }

    /** Whether unavailable providers are skipped ({@code cluster.availablecheck}). */
    public boolean availableCheck() {
        return availableCheck;
    }

    /** The providers the picker chooses among (the state's candidates). */
    public List<Invoker<T>> candidates() {
        return candidates;
    }

    /** The balancer's picker over {@link #candidates()}. */
    public Picker<T> picker() {
        return picker;
    }

    /**
     * What the strategy resolved for this method ({@link AbstractClusterInvoker#resolve}), cast to
     * the strategy's own type; null when it resolves nothing.
     */
    @SuppressWarnings("unchecked")
    public <S> S strategySettings() {
        return (S) strategySettings;
    }

    @Override
    public String toString() {
        return "MethodPlan[" + settings + ", " + loadBalance.getClass().getSimpleName() + ", retries=" + retries + "]";
    }
}
