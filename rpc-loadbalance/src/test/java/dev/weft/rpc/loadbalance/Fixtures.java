package dev.weft.rpc.loadbalance;

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

    static Invocation call(String method, Object... args) {
        Class<?>[] types = new Class<?>[args.length];
        for (int i = 0; i < args.length; i++) {
            types[i] = Object.class;
        }
        return new RpcInvocation(method, types, args);
    }

    /** Invokers named a, b, c, ... with the given weights (a negative value: no weight key). */
    static List<Invoker<Object>> weighted(int... weights) {
        List<Invoker<Object>> list = new ArrayList<>();
        for (int i = 0; i < weights.length; i++) {
            list.add(FakeInvoker.of(String.valueOf((char) ('a' + i)), i + 1, weights[i] < 0 ? "" : "weight=" + weights[i]));
        }
        return List.copyOf(list);
    }

    /** {@code n} invokers named i0, i1, ... without weights. */
    static List<Invoker<Object>> plain(int n) {
        List<Invoker<Object>> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(FakeInvoker.of("i" + i, i + 1, ""));
        }
        return List.copyOf(list);
    }

    static String names(List<? extends Invoker<?>> picks) {
        StringBuilder text = new StringBuilder();
        for (Invoker<?> pick : picks) {
            text.append(text.length() == 0 ? "" : " ").append(pick);
        }
        return text.toString();
    }

    /** How often each invoker was picked in {@code rounds} selects. */
    static Map<Invoker<Object>, Integer> counts(LoadBalance balance, List<Invoker<Object>> invokers, URL url,
                                                Invocation invocation, int rounds) {
        Map<Invoker<Object>, Integer> counts = new LinkedHashMap<>();
        for (Invoker<Object> invoker : invokers) {
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
