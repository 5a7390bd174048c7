package dev.weft.rpc.loadbalance;

import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.FakeTicker;
import java.util.concurrent.TimeUnit;
import dev.weft.rpc.spi.ExtensionDirector;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Shared test data. */
final class Fixtures {

    static final URL CONSUMER = URL.valueOf("weft://consumer:0/dev.weft.Demo");

    private Fixtures() {
    }

    /** A provider named {@code name} (its host) with the extra provider URL keys of {@code query} (may be empty). */
    static FakeProvider<FakeService> provider(String name, String query) {
        FakeProvider<FakeService> provider = FakeProvider.named(name);
        for (String pair : query.isEmpty() ? new String[0] : query.split("&")) {
            int eq = pair.indexOf('=');
            provider.parameter(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return provider;
    }

    /** A fake ticker reading one hour, so that windows and warm-up never start at the epoch of the clock. */
    static FakeTicker ticker() {
        return new FakeTicker().set(TimeUnit.HOURS.toNanos(1));
    }

    /** A fresh director reading {@code ticker}. */
    static ExtensionDirector director(FakeTicker ticker) {
        return new ExtensionDirector(Fixtures.class.getClassLoader(), ticker);
    }

    /** The statistics of a fresh director reading {@code ticker}. */
    static CallStats stats(FakeTicker ticker) {
        return CallStats.of(director(ticker));
    }

    static Invocation call(String method, Object... args) {
        Class<?>[] types = new Class<?>[args.length];
        for (int i = 0; i < args.length; i++) {
            types[i] = Object.class;
        }
        return new RpcInvocation(method, types, args);
    }

    /** Invokers named a, b, c, ... with the given weights (a negative value: no weight key). */
    static List<Invoker<FakeService>> weighted(int... weights) {
        List<Invoker<FakeService>> list = new ArrayList<>();
        for (int i = 0; i < weights.length; i++) {
            list.add(provider(String.valueOf((char) ('a' + i)), weights[i] < 0 ? "" : "weight=" + weights[i]));
        }
        return List.copyOf(list);
    }

    /** {@code n} invokers named i0, i1, ... without weights. */
    static List<Invoker<FakeService>> plain(int n) {
        List<Invoker<FakeService>> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(provider("i" + i, ""));
        }
        return List.copyOf(list);
    }

    static String names(List<? extends Invoker<?>> picks) {
        StringBuilder text = new StringBuilder();
        for (Invoker<?> pick : picks) {
            text.append(text.length() == 0 ? "" : " ").append(((FakeProvider<?>) pick).name());
        }
        return text.toString();
    }

    /** How often each invoker was picked in {@code rounds} selects. */
    static Map<Invoker<FakeService>, Integer> counts(LoadBalance balance, List<Invoker<FakeService>> invokers, URL url,
                                                Invocation invocation, int rounds) {
        Map<Invoker<FakeService>, Integer> counts = new LinkedHashMap<>();
        for (Invoker<FakeService> invoker : invokers) {
            counts.put(invoker, 0);
        }
        for (int i = 0; i < rounds; i++) {
            counts.merge(balance.select(invokers, url, invocation), 1, Integer::sum);
        }
        return counts;
    }

    /** Pearson's chi-square statistic of {@code observed} against {@code expectedShares} (summing to 1). */
    static double chiSquare(int[] observed, double[] expectedShares) {
        long total = 0;
        for (int o : observed) {
            total += o;
        }
        double chi = 0;
        for (int i = 0; i < observed.length; i++) {
            double expected = expectedShares[i] * total;
            chi += (observed[i] - expected) * (observed[i] - expected) / expected;
        }
        return chi;
    }
}
