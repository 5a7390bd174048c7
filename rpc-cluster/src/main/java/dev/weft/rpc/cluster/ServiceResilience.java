package dev.weft.rpc.cluster;

import com.google.common.base.Ticker;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The resilience of one service on the consumer, within one {@link ResilienceStats}: its
 * {@link RetryBudget} (shared by every reference to the service) and the counters an operator, a
 * test or a metrics binder reads. Obtained with {@code ResilienceStats.of(director).service(key)}.
 *
 * <p>Counters only grow, except {@link #ejectedNow()}. Thread-safe.
 */
public final class ServiceResilience {

    private final String service;
    private final RetryBudget budget;
    private final LongAdder hedgesSent = new LongAdder();
    private final LongAdder hedgesWon = new LongAdder();
    private final LongAdder ejections = new LongAdder();
    private final LongAdder returns = new LongAdder();
    private final AtomicInteger ejectedNow = new AtomicInteger();

    ServiceResilience(String service, Ticker ticker) {
        this.service = Objects.requireNonNull(service, "service");
        this.budget = new RetryBudget(ticker);
    }

    /** The service: {@code group/interface:version}, group and version when set. */
    public String service() {
        return service;
    }

    /** The service's retry budget: what every retry, hedge and extra fork draws from. */
    public RetryBudget budget() {
        return budget;
    }

    /** Retries, hedges and extra forks the budget refused. */
    public long budgetRefusals() {
        return budget.refused();
    }

    /** Retries, hedges and extra forks the budget granted. */
    public long retriesGranted() {
        return budget.granted();
    }

    /** Hedges sent ({@code cluster=hedging}). */
    public long hedgesSent() {
        return hedgesSent.sum();
    }

    /** Calls whose answer came from a hedge rather than the first attempt. */
    public long hedgesWon() {
        return hedgesWon.sum();
    }

    /** Providers ejected as outliers, each ejection counted once. */
    public long ejections() {
        return ejections.sum();
    }

    /** Ejected providers that came back on probation. */
    public long returns() {
        return returns.sum();
    }

    /** Providers ejected now. */
    public int ejectedNow() {
        return ejectedNow.get();
    }

    void hedgeSent() {
        hedgesSent.increment();
    }

    void hedgeWon() {
        hedgesWon.increment();
    }

    void ejected() {
        ejections.increment();
        ejectedNow.incrementAndGet();
    }

    void returned() {
        returns.increment();
        ejectedNow.decrementAndGet();
    }

    @Override
    public String toString() {
        return "ServiceResilience[" + service + ": budget granted " + retriesGranted() + ", refused " + budgetRefusals()
                + "; hedges sent " + hedgesSent() + ", won " + hedgesWon() + "; ejections " + ejections() + ", ejected now "
                + ejectedNow() + "]";
    }
}
