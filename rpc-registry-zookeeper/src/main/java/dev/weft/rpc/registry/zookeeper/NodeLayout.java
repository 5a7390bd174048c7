package dev.weft.rpc.registry.zookeeper;

import com.google.common.base.Splitter;
import dev.weft.rpc.common.URL;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Where a URL lives in ZooKeeper: {@code /<root>/<encoded interface>/<category>/<encoded URL>},
 * Dubbo's layout. Immutable and thread-safe.
 */
final class NodeLayout {

    /** URL key naming the category a URL is registered under or the categories subscribed to. */
    static final String CATEGORY_KEY = "category";
    static final String PROVIDERS = "providers";
    static final String CONSUMERS = "consumers";
    static final String CONFIGURATORS = "configurators";
    static final String ROUTERS = "routers";
    static final List<String> CATEGORIES = List.of(PROVIDERS, CONSUMERS, CONFIGURATORS, ROUTERS);

    private final String rootPath;

    /** {@code root} is one node name, already checked. */
    NodeLayout(String root) {
        this.rootPath = "/" + root;
    }

    String rootPath() {
        return rootPath;
    }

    /** {@code /<root>/<encoded interface>}. */
    String servicePath(URL url) {
        String service = url.getServiceInterface();
        checkArgument(service != null && !service.isEmpty() && !service.equals("*"),
                "service interface: %s (expected: an interface name as the URL path or 'interface' parameter) in %s",
                service, url);
        return rootPath + "/" + URLEncoder.encode(service, StandardCharsets.UTF_8);
    }

    /** {@code /<root>/<encoded interface>/<category>}. */
    String categoryPath(URL url, String category) {
        return servicePath(url) + "/" + category;
    }

    /** The node of a registered URL: under its {@code category} (default {@code providers}). */
    String nodePath(URL url) {
        String category = url.getParameter(CATEGORY_KEY, PROVIDERS);
        checkCategory(category, url);
        return categoryPath(url, category) + "/" + NodeNames.encode(url);
    }

    /** The categories a subscription URL names ({@code category}, comma list, default {@code providers}). */
    static List<String> subscribedCategories(URL url) {
        String value = url.getParameter(CATEGORY_KEY, PROVIDERS);
        List<String> result = Splitter.on(',').trimResults().omitEmptyStrings().splitToStream(value)
                .distinct().toList();
        result.forEach(category -> checkCategory(category, url));
        checkArgument(!result.isEmpty(), "%s: %s (expected: one or more of %s) in %s",
                CATEGORY_KEY, value, CATEGORIES, url);
        return result;
    }

    private static void checkCategory(String category, URL url) {
        checkArgument(CATEGORIES.contains(category), "%s: %s (expected: one of %s) in %s",
                CATEGORY_KEY, category, CATEGORIES, url);
    }
}
