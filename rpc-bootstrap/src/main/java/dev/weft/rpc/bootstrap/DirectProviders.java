package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.protocol.ServiceKey;
import dev.weft.rpc.registry.RegistryDirectory;
import dev.weft.rpc.spi.ExtensionDirector;

import java.util.ArrayList;
import java.util.List;

/**
 * The provider invokers named by a consumer's {@value #URL_KEY} key (comma-separated provider
 * URLs, each with its own parameters percent-encoded), referred through the protocol of each URL.
 * Each is referred as a registry lists it would be ({@link RegistryDirectory#referUrl}): the entry
 * with the consumer's parameters on top, so the consumer's {@code timeout}, {@code actives} and
 * method keys reach the protocol invoker and its filters.
 * Owns them: {@link #destroy()} destroys every one.
 */
final class DirectProviders<T> {

    /** Consumer key: direct provider URLs; when present, the registry is not asked. */
    static final String URL_KEY = "url";
    private final List<Invoker<T>> invokers;

    private DirectProviders(List<Invoker<T>> invokers) {
        this.invokers = List.copyOf(invokers);
    }

    /**
     * Refers every URL of the consumer's {@value #URL_KEY} key.
     *
     * @throws IllegalArgumentException when the key is missing or an entry is not a valid URL
     */
    static <T> DirectProviders<T> refer(ExtensionDirector director, Class<T> type, URL consumerUrl) {
        String addresses = consumerUrl.getParameter(URL_KEY, (String) null);
        if (addresses == null) {
            throw new IllegalArgumentException("refer " + type.getName() + ": no provider source in " + consumerUrl
                    + " (expected: key url=weft://127.0.0.1:20880,... or a registry in Weft.builder().registry(...))");
        }
        Protocol protocol = director.getExtensionLoader(Protocol.class).getAdaptiveExtension();
        URL consumerKeys = consumerUrl.removeParameter(URL_KEY);
        List<Invoker<T>> invokers = new ArrayList<>();
        try {
            for (String entry : addresses.split(",", -1)) {
                URL providerUrl = withServiceKeyOf(consumerUrl, providerUrl(director, type, entry.strip()));
                invokers.add(protocol.refer(type, RegistryDirectory.referUrl(providerUrl, consumerKeys)));
            }
        } catch (RuntimeException e) {
            invokers.forEach(Invoker::destroy);
            throw e;
        }
        return new DirectProviders<>(invokers);
    }

    private static URL providerUrl(ExtensionDirector director, Class<?> type, String entry) {
        String expected = " (expected: protocol://host:port, e.g. weft://127.0.0.1:20880)";
        if (entry.isEmpty()) {
            throw new IllegalArgumentException("refer " + type.getName() + ": url entry ''" + expected);
        }
        URL url;
        try {
            url = URL.valueOf(entry);
        } catch (IllegalArgumentException e) {
            // the parser's message names the entry with its password redacted
            throw new IllegalArgumentException("refer " + type.getName() + ": url entry" + expected + ": " + e.getMessage(), e);
        }
        var loader = director.getExtensionLoader(Protocol.class);
        if (url.getProtocol() == null || !loader.hasExtension(url.getProtocol())) {
            throw new IllegalArgumentException("refer " + type.getName() + ": protocol " + url.getProtocol() + " of url entry '"
                    + url + "' (expected: one of " + loader.getSupportedExtensions() + ")");
        }
        if (url.getPath() == null || url.getPath().isEmpty()) {
            url = url.withPath(type.getName());
        }
        return url.hasParameter(ServiceUrls.INTERFACE_KEY) ? url : url.addParameter(ServiceUrls.INTERFACE_KEY, type.getName());
    }

    /**
     * {@code providerUrl} with the consumer's {@code group} and {@code version} where the entry
     * names none: they select the service on the provider, and {@code referUrl} keeps the
     * provider's own.
     */
    private static URL withServiceKeyOf(URL consumerUrl, URL providerUrl) {
        URL result = providerUrl;
        for (String key : List.of(ServiceKey.GROUP_KEY, ServiceKey.VERSION_KEY)) {
            String value = consumerUrl.getParameter(key, (String) null);
            if (value != null && !result.hasParameter(key)) {
                result = result.addParameter(key, value);
            }
        }
        return result;
    }

    /** {@code url=} and its entries, each password replaced by {@code ***}: for messages. */
    static String describe(URL consumerUrl) {
        List<String> entries = new ArrayList<>();
        for (String entry : consumerUrl.getParameter(URL_KEY, "").split(",", -1)) {
            try {
                entries.add(URL.valueOf(entry.strip()).toString());
            } catch (IllegalArgumentException e) {
                entries.add("(a malformed entry)");
            }
        }
        return URL_KEY + "=" + String.join(",", entries);
    }

    List<Invoker<T>> invokers() {
        return invokers;
    }

    void destroy() {
        invokers.forEach(Invoker::destroy);
    }
}
