package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.bootstrap.Weft;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The {@code Weft}s of one test and the {@link ShopImpl}s they export over {@code weft} on
 * 127.0.0.1; {@link #close} releases every held call, then closes everything, newest first.
 */
final class LoopbackShops implements AutoCloseable {

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<ShopImpl> shops = new ArrayList<>();

    /** A new {@code Weft}, closed with the others. */
    Weft weft() {
        Weft weft = Weft.builder().build();
        closeables.add(weft);
        return weft;
    }

    /** Exports a {@link ShopImpl} named {@code id} on a free loopback port; returns {@code host:port}. */
    String export(Weft weft, String id, String extraKeys) {
        ShopImpl shop = new ShopImpl(id);
        shops.add(shop);
        return weft.export(Shop.class, shop, "weft://127.0.0.1:0?threads=8" + extraKeys).getInvoker().getUrl().getAddress();
    }

    /**
     * Opens {@code consumer}'s connections to every provider at {@code addresses} (those a later
     * reference of the same addresses shares): calls them round robin, 10 ms apart, until each has
     * answered (a connection is available once it answered its first PING), for at most 5 s, so
     * that a strategy that calls several providers finds them all available.
     */
    static void connect(Weft consumer, List<String> addresses) throws InterruptedException {
        Shop warmUp = consumer.refer(Shop.class, "url=weft://" + String.join(",weft://", addresses)
                + "&loadbalance=roundrobin&timeout=5000&retries=0");
        Set<String> answered = new HashSet<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (answered.size() < addresses.size() && System.nanoTime() < deadline) {
            answered.add(warmUp.greet("warm-up"));
            Thread.sleep(10);
        }
        if (answered.size() < addresses.size()) {
            throw new IllegalStateException("providers not all reached in 5 s: " + answered + " of " + addresses);
        }
    }

    /** A new {@code Weft} whose calls are measured into {@code meters}. */
    Weft metered(MeterRegistry meters) {
        Weft weft = weft();
        new WeftMetrics(weft.director()).bindTo(meters);
        return weft;
    }

    /**
     * Two providers, each in a {@code Weft} of its own: {@code slow}, whose {@code hold} waits
     * (about 2 s, or until closed), and {@code fast}, whose {@code hold} answers at once.
     */
    SlowAndFast slowAndFast() {
        String slow = export(weft(), "slow", "");
        String fast = export(weft(), "fast", "");
        shops.get(shops.size() - 1).release.countDown();
        return new SlowAndFast(slow, fast);
    }

    /** The addresses of {@link #slowAndFast()}'s providers. */
    record SlowAndFast(String slow, String fast) {
        /** The consumer key naming both, slow first: {@code url=weft://slow,weft://fast}. */
        String urls() {
            return "url=weft://" + slow + ",weft://" + fast;
        }
    }

    /** The {@code index}th shop exported (from 0). */
    ShopImpl shop(int index) {
        return shops.get(index);
    }

    /** Closes {@code closeable} with the rest, before what was added earlier. */
    void closeLater(AutoCloseable closeable) {
        closeables.add(closeable);
    }

    @Override
    public void close() throws Exception {
        shops.forEach(shop -> {
            shop.release.countDown();
            shop.later.complete("closed");
        });
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }
}
