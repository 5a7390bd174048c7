package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.ProviderMethods;

import java.util.LinkedHashMap;
import java.util.Map;

/** Builds the provider and consumer URLs of a service from what the user wrote. */
final class ServiceUrls {

    static final String INTERFACE_KEY = "interface";
    static final String APPLICATION_KEY = "application";
    static final String SIDE_KEY = "side";
    static final String TIMESTAMP_KEY = "timestamp";
    /** Registry key: the category a URL is registered under. */
    static final String CATEGORY_KEY = "category";
    static final String PROVIDERS_CATEGORY = "providers";
    static final String CONSUMERS_CATEGORY = "consumers";

    private ServiceUrls() {
    }

    /**
     * {@code url} with the path defaulting to the interface name and {@code interface},
     * {@code application}, {@code side=provider} and the start {@code timestamp} (for warm-up)
     * added unless the user set them, and the interface's method names ({@code methods}, see
     * {@link ProviderMethods}).
     *
     * @throws IllegalArgumentException when {@code interface} names another type, {@code methods}
     *                                  other methods than the interface's, or {@code category}
     *                                  another category than {@code providers} (the registry would file
     *                                  the provider there: as an override rule, a consumer, ...)
     */
    static URL provider(URL url, Class<?> type, String application, long nowMillis) {
        String declared = url.getParameter(INTERFACE_KEY);
        if (declared != null && !declared.equals(type.getName())) {
            throw new IllegalArgumentException("export " + type.getName() + ": interface=" + declared + " in " + url
                    + " (expected: " + type.getName() + " or no interface key)");
        }
        String category = url.getParameter(CATEGORY_KEY);
        if (category != null && !category.equals(PROVIDERS_CATEGORY)) {
            throw new IllegalArgumentException("export " + type.getName() + ": " + CATEGORY_KEY + "=" + category + " in " + url
                    + " (expected: " + PROVIDERS_CATEGORY + " or no " + CATEGORY_KEY + " key; a service is registered as a provider)");
        }
        String methods = ProviderMethods.of(type);
        String listed = url.getParameter(ProviderMethods.METHODS_KEY);
        if (listed != null && !listed.equals(methods)) {
            throw new IllegalArgumentException("export " + type.getName() + ": " + ProviderMethods.METHODS_KEY + "=" + listed
                    + " in " + url + " (expected: " + methods + ", the interface's methods, or no " + ProviderMethods.METHODS_KEY
                    + " key: it is written at export)");
        }
        URL result = url.getPath() == null || url.getPath().isEmpty() ? url.withPath(type.getName()) : url;
        Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put(INTERFACE_KEY, type.getName());
        defaults.put(APPLICATION_KEY, application);
        defaults.put(SIDE_KEY, "provider");
        defaults.put(TIMESTAMP_KEY, Long.toString(nowMillis));
        defaults.put(ProviderMethods.METHODS_KEY, methods);
        return withDefaults(result, defaults);
    }

    /**
     * The consumer URL {@code consumer://host/<interface>?interface=..&application=..&side=consumer&<parameters>}.
     *
     * @throws IllegalArgumentException when {@code interface} names another type
     */
    static URL consumer(String host, Class<?> type, String application, Map<String, String> parameters) {
        String declared = parameters.get(INTERFACE_KEY);
        if (declared != null && !declared.equals(type.getName())) {
            throw new IllegalArgumentException("refer " + type.getName() + ": interface=" + declared
                    + " (expected: " + type.getName() + " or no interface key)");
        }
        Map<String, String> all = new LinkedHashMap<>();
        all.put(INTERFACE_KEY, type.getName());
        all.put(APPLICATION_KEY, application);
        all.put(SIDE_KEY, "consumer");
        all.putAll(parameters);
        return new URL("consumer", host, 0, type.getName()).addParameters(all);
    }

    private static URL withDefaults(URL url, Map<String, String> defaults) {
        Map<String, String> missing = new LinkedHashMap<>();
        defaults.forEach((key, value) -> {
            if (!url.hasParameter(key)) {
                missing.put(key, value);
            }
        });
        return missing.isEmpty() ? url : url.addParameters(missing);
    }
}
