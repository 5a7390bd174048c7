package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.spi.ExtensionDirector;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The provider invokers named by a consumer's {@value #URL_KEY} key (comma-separated provider
 * URLs, each with its own parameters percent-encoded), referred through the protocol of each URL.
 * Owns them: {@link #destroy()} destroys every one.
 */
final class DirectProviders<T> {

    /** Consumer key: direct provider URLs, used when no registry is configured. */
    static final String URL_KEY = "url";
    /** Consumer key: wait for a first available provider at refer time (default true). */
    static final String CHECK_KEY = "check";
    private static final String TIMEOUT_KEY = "timeout";
    private static final int DEFAULT_TIMEOUT_MILLIS = 1000;

    private final Class<T> type;
    private final List<Invoker<T>> invokers;

    private DirectProviders(Class<T> type, List<Invoker<T>> invokers) {
        this.type = type;
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
        List<Invoker<T>> invokers = new ArrayList<>();
        try {
            for (String entry : addresses.split(",")) {
                invokers.add(protocol.refer(type, providerUrl(director, type, entry.strip())));
            }
        } catch (RuntimeException e) {
            invokers.forEach(Invoker::destroy);
            throw e;
        }
        return new DirectProviders<>(type, invokers);
    }

    private static URL providerUrl(ExtensionDirector director, Class<?> type, String entry) {
        URL url;
        try {
            url = URL.valueOf(entry);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("refer " + type.getName() + ": url entry '" + entry
                    + "' (expected: protocol://host:port, e.g. weft://127.0.0.1:20880): " + e.getMessage(), e);
        }
        var loader = director.getExtensionLoader(Protocol.class);
        if (url.getProtocol() == null || !loader.hasExtension(url.getProtocol())) {
            throw new IllegalArgumentException("refer " + type.getName() + ": protocol " + url.getProtocol() + " of url entry '"
                    + entry + "' (expected: one of " + loader.getSupportedExtensions() + ")");
        }
        if (url.getPath() == null || url.getPath().isEmpty()) {
            url = url.withPath(type.getName());
        }
        return url.hasParameter(ServiceUrls.INTERFACE_KEY) ? url : url.addParameter(ServiceUrls.INTERFACE_KEY, type.getName());
    }

    List<Invoker<T>> invokers() {
        return invokers;
    }

    /**
     * With {@code check=true} (the default), waits up to the consumer's {@code timeout} for one
     * provider to be available.
     *
     * @throws IllegalStateException naming the service and the providers tried when none is
     */
    void awaitFirstAvailable(URL consumerUrl) {
        if (!consumerUrl.getParameter(CHECK_KEY, true)) {
            return;
        }
        long timeoutMillis = consumerUrl.getParameter(TIMEOUT_KEY, DEFAULT_TIMEOUT_MILLIS);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            for (Invoker<T> invoker : invokers) {
                if (invoker.isAvailable()) {
                    return;
                }
            }
            if (System.nanoTime() - deadline >= 0) {
                break;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        List<URL> urls = invokers.stream().map(Invoker::getUrl).toList();
        throw new IllegalStateException("refer " + type.getName() + describeKey(consumerUrl) + ": no available provider within "
                + timeoutMillis + " ms among " + urls + " (expected: a running provider, or check=false to refer anyway)");
    }

    private static String describeKey(URL url) {
        String group = url.getParameter("group", (String) null);
        String version = url.getParameter("version", (String) null);
        return (group == null ? "" : " group " + group) + (version == null ? "" : " version " + version);
    }

    void destroy() {
        invokers.forEach(Invoker::destroy);
    }
}
