package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invoker;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Lists of {@link FakeProvider}s, named {@code a}, {@code b}, {@code c}, ... in order
 * ({@code z}, then {@code aa}, {@code ab}, ...), and views of them that balancers and directories
 * take.
 *
 * <pre>{@code
 * List<FakeProvider<Greeting>> providers = FakeProviders.withWeights(Greeting.class, 1, 9, 6);
 * LoadBalance balancer = ...;
 * balancer.select(FakeProviders.invokers(providers), consumerUrl, invocation);
 * }</pre>
 *
 * Stateless; each call builds new providers.
 */
public final class FakeProviders {

    private FakeProviders() {
    }

    /**
     * One provider per weight, named {@code a}, {@code b}, ..., each with {@code weight=<w>}.
     *
     * @throws IllegalArgumentException when there is no weight or a weight is negative
     */
    public static <T> List<FakeProvider<T>> withWeights(Class<T> type, int... weights) {
        Objects.requireNonNull(weights, "weights");
        checkArgument(weights.length > 0, "weights: [] (expected: at least one)");
        List<FakeProvider<T>> providers = new ArrayList<>(weights.length);
        for (int i = 0; i < weights.length; i++) {
            checkArgument(weights[i] >= 0, "weights[%s]: %s (expected: >= 0)", i, weights[i]);
            providers.add(FakeProvider.of(type, nameOf(i)).weight(weights[i]));
        }
        return List.copyOf(providers);
    }

    /**
     * {@code count} providers named {@code a}, {@code b}, ..., with no {@code weight} key (the
     * default weight).
     */
    public static <T> List<FakeProvider<T>> of(Class<T> type, int count) {
        checkArgument(count > 0, "count: %s (expected: > 0)", count);
        List<FakeProvider<T>> providers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            providers.add(FakeProvider.of(type, nameOf(i)));
        }
        return List.copyOf(providers);
    }

    /** One provider per name, in order. */
    public static <T> List<FakeProvider<T>> named(Class<T> type, String... names) {
        Objects.requireNonNull(names, "names");
        checkArgument(names.length > 0, "names: [] (expected: at least one)");
        List<FakeProvider<T>> providers = new ArrayList<>(names.length);
        for (String name : names) {
            providers.add(FakeProvider.of(type, name));
        }
        return List.copyOf(providers);
    }

    /** The name of the provider at {@code index}: {@code a}..{@code z}, {@code aa}, {@code ab}, ... */
    public static String nameOf(int index) {
        checkArgument(index >= 0, "index: %s (expected: >= 0)", index);
        StringBuilder name = new StringBuilder();
        int rest = index;
        do {
            name.append((char) ('a' + rest % 26));
            rest = rest / 26 - 1;
        } while (rest >= 0);
        return name.reverse().toString();
    }

    /** {@code providers} as the immutable {@code List<Invoker<T>>} balancers and directories take. */
    public static <T> List<Invoker<T>> invokers(List<? extends FakeProvider<T>> providers) {
        Objects.requireNonNull(providers, "providers");
        return List.copyOf(providers);
    }

    /** Calls each provider received, by name, in the list's order: {@code {a=1, b=9, c=6}}. */
    public static Map<String, Integer> callCounts(List<? extends FakeProvider<?>> providers) {
        Objects.requireNonNull(providers, "providers");
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (FakeProvider<?> provider : providers) {
            counts.put(provider.name(), provider.calls());
        }
        return counts;
    }

    /** Calls received by all of {@code providers}. */
    public static int totalCalls(List<? extends FakeProvider<?>> providers) {
        Objects.requireNonNull(providers, "providers");
        int total = 0;
        for (FakeProvider<?> provider : providers) {
            total += provider.calls();
        }
        return total;
    }
}
