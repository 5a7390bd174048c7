package dev.weft.rpc.loadbalance;

import com.google.common.base.Ticker;
import com.google.common.collect.MapMaker;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.InvokerView;
import dev.weft.rpc.spi.ExtensionDirector;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * The call statistics of one {@link ExtensionDirector}: one {@link InvokerStats} per provider
 * invoker, recorded by the cluster around every call and read by the balancers (built-in and
 * third-party alike, through this public API).
 *
 * <p><b>Owner.</b> Obtained with {@link #of(ExtensionDirector)}: one instance per director, so two
 * directors (two applications, two tests) never see each other's counts. Time comes from the
 * director's {@linkplain ExtensionDirector#getTicker() ticker}; a test passing a fake ticker gets
 * exact latencies, windows and warm-up.
 *
 * <p><b>Lifetime.</b> Invokers are held weakly (compared by identity): the statistics of an invoker
 * nobody references any more go with it, so nothing grows with provider generations.
 *
 * <p>Thread-safe.
 */
public final class CallStats {

    private final Ticker ticker;
    private final long wallMillisAtStart;
    private final long tickerAtStart;
    private final ConcurrentMap<Invoker<?>, InvokerStats> byInvoker = new MapMaker().weakKeys().makeMap();

    private CallStats(Ticker ticker, long wallMillisAtStart) {
        this.ticker = ticker;
        this.wallMillisAtStart = wallMillisAtStart;
        this.tickerAtStart = ticker.read();
    }

    /** The statistics of {@code director}, created on first use and shared by everything it creates. */
    public static CallStats of(ExtensionDirector director) {
        Objects.requireNonNull(director, "director");
        return director.getService(CallStats.class, d -> new CallStats(d.getTicker(), System.currentTimeMillis()));
    }

    /**
     * The statistics of {@code invoker} (the same object for the same invoker while it is
     * reachable). Views ({@link InvokerView}) share the statistics of the invoker they show, so a
     * registry override that only changes URL parameters keeps the counts.
     */
    public InvokerStats get(Invoker<?> invoker) {
        return byInvoker.computeIfAbsent(InvokerView.unwrap(Objects.requireNonNull(invoker, "invoker")), key -> new InvokerStats(ticker));
    }

    /** The statistics of each of {@code invokers}, in list order: what a picker holds for its state. */
    public InvokerStats[] getAll(List<? extends Invoker<?>> invokers) {
        return invokers.stream().map(this::get).toArray(InvokerStats[]::new);
    }

    /** The director's clock, in nanoseconds. */
    public Ticker ticker() {
        return ticker;
    }

    /**
     * Wall-clock milliseconds since the epoch, advancing with the director's ticker (the wall clock
     * read once, when these statistics were created, plus the ticker's elapsed time). Warm-up reads
     * it: provider {@code timestamp}s are wall time, and a fake ticker moves it too.
     */
    public long currentTimeMillis() {
        return wallMillisAtStart + TimeUnit.NANOSECONDS.toMillis(ticker.read() - tickerAtStart);
    }

    @Override
    public String toString() {
        return "CallStats[" + byInvoker.size() + " invokers]";
    }
}
