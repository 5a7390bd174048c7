package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.ServiceKey;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The {@value #CHECK_KEY} rule of {@code refer}: wait up to the consumer's {@code timeout} for a
 * first available provider, and fail naming the service and where its providers were looked for.
 */
final class ProviderCheck {

    /** Consumer key: wait for a first available provider at refer time (default true). */
    static final String CHECK_KEY = "check";
    private static final int DEFAULT_TIMEOUT_MILLIS = 1000;
    private static final long POLL_MILLIS = 5;

    private ProviderCheck() {
    }

    /**
     * Returns once one of {@code invokers} is available, at once when {@code check=false}.
     *
     * @param source    where the providers come from and its state, for the message ("registry zookeeper://...")
     * @param abandoned true once the wait is pointless (the {@code Weft} is closing)
     * @throws IllegalStateException when none is available within the consumer's timeout, or the
     *                               wait is abandoned or interrupted (the interrupt status is kept)
     */
    static void await(Class<?> type, URL consumerUrl, Supplier<? extends List<? extends Invoker<?>>> invokers,
                      Supplier<String> source, BooleanSupplier abandoned) {
        if (!consumerUrl.getParameter(CHECK_KEY, true)) {
            return;
        }
        long timeoutMillis = consumerUrl.getParameter(CallTimeKeys.TIMEOUT_KEY, DEFAULT_TIMEOUT_MILLIS);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            if (abandoned.getAsBoolean()) {
                throw new IllegalStateException("refer " + type.getName() + describeKey(consumerUrl)
                        + ": Weft closed while waiting for a first provider (expected: an open instance)");
            }
            for (Invoker<?> invoker : invokers.get()) {
                if (invoker.isAvailable()) {
                    return;
                }
            }
            if (System.nanoTime() - deadline >= 0) {
                break;
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("refer " + type.getName() + describeKey(consumerUrl)
                        + ": interrupted while waiting for a first provider from " + source.get()
                        + " (expected: an uninterrupted wait of up to " + timeoutMillis + " ms)", e);
            }
        }
        throw new IllegalStateException("refer " + type.getName() + describeKey(consumerUrl) + ": no available provider within "
                + timeoutMillis + " ms from " + source.get() + " (expected: a running provider, or check=false to refer anyway)");
    }

    private static String describeKey(URL url) {
        String group = url.getParameter(ServiceKey.GROUP_KEY, (String) null);
        String version = url.getParameter(ServiceKey.VERSION_KEY, (String) null);
        return (group == null ? "" : " group " + group) + (version == null ? "" : " version " + version);
    }
}
