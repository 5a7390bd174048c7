package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;

/**
 * The registry categories and how a notified URL is assigned to one.
 *
 * <p>A registry keeps each service's URLs in categories: {@value #PROVIDERS} (the provider
 * instances), {@value #CONSUMERS} (the consumers, for operators and admin tools) and
 * {@value #CONFIGURATORS} (override rules). A URL names its category with the parameter
 * {@value #CATEGORY_KEY}; an {@code override://} URL is a configurator whatever it says, and an
 * {@value #EMPTY_PROTOCOL}{@code ://} URL stands for "this category is now empty".
 */
public final class Categories {

    /** URL key: the category of a registered URL, or the comma-separated categories a subscription asks for. */
    public static final String CATEGORY_KEY = "category";

    public static final String PROVIDERS = "providers";
    public static final String CONSUMERS = "consumers";
    public static final String CONFIGURATORS = "configurators";
    /** Dubbo's routing rules; subscribed by Dubbo consumers, not read by Weft. */
    public static final String ROUTERS = "routers";

    /** The protocol of the one URL that announces an empty category. */
    public static final String EMPTY_PROTOCOL = "empty";

    private Categories() {
    }

    /** The category {@code url} belongs to (default {@value #PROVIDERS}). */
    public static String of(URL url) {
        String protocol = url.getProtocol();
        if (Configurator.OVERRIDE_PROTOCOL.equals(protocol) || Configurator.ABSENT_PROTOCOL.equals(protocol)) {
            return CONFIGURATORS;
        }
        return url.getParameter(CATEGORY_KEY, PROVIDERS);
    }

    /** Whether {@code url} announces that its category is empty. */
    public static boolean isEmptyMarker(URL url) {
        return EMPTY_PROTOCOL.equals(url.getProtocol());
    }

    /** The {@code empty://} URL that announces an empty {@code category} to the subscriber of {@code subscribed}. */
    public static URL emptyMarker(URL subscribed, String category) {
        return subscribed.withProtocol(EMPTY_PROTOCOL).addParameter(CATEGORY_KEY, category);
    }
}
