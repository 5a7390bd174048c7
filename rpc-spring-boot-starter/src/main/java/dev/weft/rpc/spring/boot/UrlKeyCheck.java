package dev.weft.rpc.spring.boot;

import dev.weft.rpc.bootstrap.KnownKeys;
import dev.weft.rpc.common.URL;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Start-up's check of URL keys: where {@code Weft} only warns about a key no module on the class
 * path reads, the starter refuses it, so a typo ({@code loadbalnce=p2c}) cannot silently do nothing.
 * The keys are Weft's own declarations ({@link KnownKeys}). Immutable and thread-safe.
 */
final class UrlKeyCheck {

    private final KnownKeys keys;

    UrlKeyCheck(ClassLoader loader) {
        this.keys = KnownKeys.load(Objects.requireNonNull(loader, "loader"));
    }

    /**
     * Parses {@code query} ({@code k=v&k2=v2}, percent-encoded as in a URL; empty or null: none).
     *
     * @throws IllegalArgumentException naming {@code what} and the text when it is not a query string
     */
    static Map<String, String> parseQuery(String what, String query) {
        if (query == null || query.isBlank()) {
            return new LinkedHashMap<>();
        }
        try {
            return new LinkedHashMap<>(URL.valueOf("consumer://127.0.0.1/parameters?" + query.strip()).getParameters());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": '" + query + "' (expected: URL keys as a query string,"
                    + " k=v&k2=v2): " + e.getMessage(), e);
        }
    }

    /**
     * Refuses a parameter of {@code url} that no module declares, or (with {@code service}) a
     * method-level key naming no method of it.
     *
     * @param service the service interface, or null for a URL of no one service (the registry's)
     * @throws IllegalArgumentException {@code what: key=value (expected: ...; did you mean 'closest'?)}
     */
    void requireKnown(String what, URL url, Class<?> service) {
        List<String> unknown = service == null ? keys.unknownParameters(url) : keys.unknownParameters(url, service);
        if (unknown.isEmpty()) {
            return;
        }
        String first = unknown.get(0);
        int space = first.indexOf(' ');
        String key = space < 0 ? first : first.substring(0, space);
        String hint = space < 0 ? "" : "; " + first.substring(space + 1).strip().replaceAll("^\\((.*)\\)$", "$1");
        throw new IllegalArgumentException(what + ": " + key + "=" + url.getParameter(key)
                + " (expected: a URL key that a module on the class path reads" + hint + ")"
                + (unknown.size() > 1 ? "; also unknown: " + unknown.subList(1, unknown.size()) : ""));
    }
}
