package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns a URL into the name of its ZooKeeper node and back, in the form Dubbo uses: the whole URL
 * form-encoded once, so that the name holds no {@code /}.
 *
 * <p>Names are written with the parameters sorted by key, so one URL always gives one name and
 * {@code unregister} deletes exactly the node {@code register} created. Reading decodes the name
 * once and parses it with {@link URL#valueOf}; that reads Weft's names (whose values are encoded
 * again by {@link URL#toFullString()}) and Dubbo 2.x names (raw values, {@code +} for a space)
 * alike. Stateless and thread-safe.
 */
final class NodeNames {

    private NodeNames() {
    }

    /** The node name of {@code url}: its full string, parameters sorted, form-encoded. */
    static String encode(URL url) {
        Map<String, String> sorted = new TreeMap<>(url.getParameters());
        return URLEncoder.encode(url.withParameters(sorted).toFullString(), StandardCharsets.UTF_8);
    }

    /**
     * The URL a node name stands for.
     *
     * @throws IllegalArgumentException if the name is not a form-encoded URL with a protocol
     */
    static URL decode(String name) {
        String text;
        try {
            text = URLDecoder.decode(name, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("node name: " + name
                    + " (expected: a form-encoded URL; " + e.getMessage() + ")", e);
        }
        if (!text.contains("://")) {
            throw new IllegalArgumentException("node name: " + name
                    + " (expected: a form-encoded URL such as weft%3A%2F%2F10.0.0.1%3A20880%2Fcom.acme.Greeter)");
        }
        return URL.valueOf(text);
    }
}
