package dev.weft.rpc.mock;

import com.google.common.base.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;

/**
 * What the mock invokers of one {@link MockClusterWrapper} share: the way a mock implementation
 * becomes an {@link dev.weft.rpc.common.Invoker}. Nothing that depends on a service interface is
 * kept here: the value converter (with its Jackson mapper and type caches) and the mock-class
 * instances belong to each {@link MockInvoker}, so a consumer's class loader can be collected once
 * its invokers are gone, however long the wrapper lives.
 *
 * <p>Immutable and thread-safe.
 */
final class MockSupport {

    private final ImplementationInvokers invokers;
    private final Ticker ticker;
    private final Logger outageLogger;

    MockSupport(ImplementationInvokers invokers) {
        this(invokers, Ticker.systemTicker(), LoggerFactory.getLogger(MockClusterInvoker.class));
    }

    /** {@code ticker} and {@code outageLogger} pace and receive the lines about calls the mock answers. */
    MockSupport(ImplementationInvokers invokers, Ticker ticker, Logger outageLogger) {
        this.invokers = Objects.requireNonNull(invokers, "invokers");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.outageLogger = Objects.requireNonNull(outageLogger, "outageLogger");
    }

    ImplementationInvokers invokers() {
        return invokers;
    }

    Ticker ticker() {
        return ticker;
    }

    Logger outageLogger() {
        return outageLogger;
    }
}
