package dev.weft.rpc.examples;

import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.Objects;

/**
 * One run of the playground: a consumer URL against a set of providers. Immutable.
 *
 * @param title       the short name shown in the table
 * @param consumerUrl the consumer URL (the directory's URL: cluster, loadbalance, mock, ... keys)
 * @param providers   the providers, served on 127.0.0.1 by {@link TourProviders}
 */
record Scenario(String title, URL consumerUrl, List<ProviderSpec> providers) {

    Scenario {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(consumerUrl, "consumerUrl");
        providers = List.copyOf(providers);
        if (providers.isEmpty()) {
            throw new IllegalArgumentException("providers: [] (expected: at least one provider)");
        }
    }

    /** The consumer URL's parameters as {@code k=v&k2=v2}, as a user would type them for {@code --url}. */
    String parameters() {
        StringBuilder sb = new StringBuilder();
        consumerUrl.getParameters().forEach((key, value) -> {
            if (sb.length() > 0) {
                sb.append('&');
            }
            sb.append(key).append('=').append(value);
        });
        return sb.toString();
    }

    /**
     * A title from the keys that matter most: {@code cluster} (default failover), then the
     * {@code loadbalance} when set, then {@code mock} when set; e.g. {@code failover + p2c + mock}.
     */
    static String titleOf(URL url) {
        StringBuilder title = new StringBuilder(url.getParameter("cluster", "failover"));
        String loadBalance = url.getParameter("loadbalance", "");
        if (!loadBalance.isEmpty()) {
            title.append(" + ").append(loadBalance);
        }
        String mock = url.getParameter("mock", "");
        if (!mock.isEmpty() && !mock.equals("false")) {
            title.append(" + mock");
        }
        return title.toString();
    }
}
