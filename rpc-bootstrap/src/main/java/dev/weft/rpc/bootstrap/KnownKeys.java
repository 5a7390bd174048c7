package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.NameSuggestions;
import dev.weft.rpc.common.URL;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The URL keys declared by the modules on a class path: each module lists the keys it reads in
 * its {@value #RESOURCE} resource, one {@code key | default | where | meaning} line each, after
 * a {@code module: <name>} line. The same files generate the key reference in the docs, so a
 * key is declared exactly once.
 *
 * <p>A URL parameter is known when its name is declared, or when it is {@code <method>.<key>}
 * for a declared key. Immutable and thread-safe.
 */
public final class KnownKeys {

    /** Where each module declares its keys. */
    public static final String RESOURCE = "META-INF/weft/url-keys";

    private final Map<String, String> moduleByKey;

    private KnownKeys(Map<String, String> moduleByKey) {
        this.moduleByKey = Collections.unmodifiableMap(moduleByKey);
    }

    /**
     * Reads every {@value #RESOURCE} visible to {@code loader}.
     *
     * @throws IllegalStateException naming the file and line when a declaration is malformed, or
     *                               when two modules declare the same key
     */
    public static KnownKeys load(ClassLoader loader) {
        Objects.requireNonNull(loader, "loader");
        Map<String, String> moduleByKey = new LinkedHashMap<>();
        try {
            Enumeration<java.net.URL> resources = loader.getResources(RESOURCE);
            while (resources.hasMoreElements()) {
                read(resources.nextElement(), moduleByKey);
            }
        } catch (IOException e) {
            throw new IllegalStateException("URL key declarations: cannot read " + RESOURCE + " (" + e + ")", e);
        }
        return new KnownKeys(moduleByKey);
    }

    private static void read(java.net.URL resource, Map<String, String> moduleByKey) throws IOException {
        String module = null;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(resource.openStream(), StandardCharsets.UTF_8))) {
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                String text = line.strip();
                if (text.isEmpty() || text.startsWith("#")) {
                    continue;
                }
                if (text.startsWith("module:")) {
                    module = text.substring("module:".length()).strip();
                    continue;
                }
                String[] cells = text.split(" \\| ", -1);
                if (module == null || cells.length != 4 || cells[0].isBlank()) {
                    throw new IllegalStateException("URL key declaration: '" + text + "' at " + resource + ":" + number
                            + " (expected: a 'module: <name>' line, then lines of key | default | where | meaning)");
                }
                String key = cells[0].strip();
                String previous = moduleByKey.putIfAbsent(key, module);
                if (previous != null && !previous.equals(module)) {
                    throw new IllegalStateException("URL key declaration: '" + key + "' at " + resource + ":" + number
                            + " by " + module + " (expected: one declaring module per key; " + previous + " declares it)");
                }
            }
        }
    }

    /** Every declared key with the module that declares it, in reading order. */
    public Map<String, String> declared() {
        return moduleByKey;
    }

    /** Whether {@code parameter} is a declared key or {@code <method>.<declared key>}. */
    public boolean isKnown(String parameter) {
        if (moduleByKey.containsKey(parameter)) {
            return true;
        }
        int dot = parameter.indexOf('.');
        return dot > 0 && moduleByKey.containsKey(parameter.substring(dot + 1));
    }

    /** The declared key closest to an unknown parameter (its key part for a method-level one). */
    public Optional<String> closest(String parameter) {
        String direct = NameSuggestions.closest(parameter, moduleByKey.keySet());
        if (direct != null) {
            return Optional.of(direct);
        }
        int dot = parameter.indexOf('.');
        if (dot > 0) {
            String key = NameSuggestions.closest(parameter.substring(dot + 1), moduleByKey.keySet());
            if (key != null) {
                return Optional.of(parameter.substring(0, dot + 1) + key);
            }
        }
        return Optional.empty();
    }

    /**
     * As {@link #unknownParameters(URL)}, and a method-level key naming no method of {@code service}
     * is unknown too, the closest method named:
     * {@code gret.timeout (no method gret in com.example.Greeter; did you mean 'greet.timeout'?)}.
     */
    public List<String> unknownParameters(URL url, Class<?> service) {
        Objects.requireNonNull(service, "service");
        Set<String> methods = new TreeSet<>();
        for (Method method : service.getMethods()) {
            methods.add(method.getName());
        }
        return unknownParameters(url, service.getName(), methods);
    }

    /**
     * As {@link #unknownParameters(URL, Class)} for a service known by its name and method names
     * only (as a registry lists them).
     */
    public List<String> unknownParameters(URL url, String service, Set<String> methods) {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(methods, "methods");
        List<String> unknown = new ArrayList<>();
        for (String parameter : url.getParameters().keySet()) {
            String method = methodOf(parameter);
            if (!isKnown(parameter)) {
                unknown.add(parameter + closest(parameter).map(k -> " (did you mean '" + k + "'?)").orElse(""));
            } else if (method != null && !methods.contains(method)) {
                String closest = NameSuggestions.closest(method, methods);
                unknown.add(parameter + " (no method " + method + " in " + service + "; "
                        + (closest == null ? "methods: " + new TreeSet<>(methods)
                        : "did you mean '" + closest + parameter.substring(method.length()) + "'?") + ")");
            }
        }
        return unknown;
    }

    /**
     * The method a known parameter is for ({@code find} of {@code find.retries}), or null when it
     * is a declared key itself (service-wide, such as {@code hash.nodes}) or not known.
     */
    public String methodOf(String parameter) {
        if (moduleByKey.containsKey(parameter) || !isKnown(parameter)) {
            return null;
        }
        return parameter.substring(0, parameter.indexOf('.'));
    }

    /**
     * One line per parameter of {@code url} that no module declares, with the closest known key
     * when there is one: {@code loadbalnce (did you mean 'loadbalance'?)}.
     */
    public List<String> unknownParameters(URL url) {
        List<String> unknown = new ArrayList<>();
        for (String parameter : url.getParameters().keySet()) {
            if (!isKnown(parameter)) {
                unknown.add(parameter + closest(parameter).map(k -> " (did you mean '" + k + "'?)").orElse(""));
            }
        }
        return unknown;
    }
}
