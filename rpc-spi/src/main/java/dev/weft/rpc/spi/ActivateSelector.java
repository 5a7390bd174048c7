package dev.weft.rpc.spi;

import dev.weft.rpc.common.URL;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides which extensions {@code getActivateExtensions(url, key, group)} returns, by name.
 *
 * <p>Automatic ones: annotated {@link Activate}, group matching (an empty group on either side
 * matches all), and when {@link Activate#value()} lists keys, at least one present and non-empty
 * on the URL (also as {@code method.key}); sorted by order, then name. Explicit ones: the
 * comma-separated names in the URL parameter {@code key}; {@code -name} removes one,
 * {@code -default} removes all automatic ones, {@code default} marks where the automatic ones go
 * (at the front when absent). Stateless.
 */
final class ActivateSelector {

    public static final String DEFAULT_MARKER = "default";
    private static final String REMOVE_PREFIX = "-";

    private ActivateSelector() {
    }

    public static List<String> select(ExtensionClasses classes, URL url, String key, String group) {
        List<String> explicit = new ArrayList<>();
        Set<String> removed = new LinkedHashSet<>();
        String configured = key == null || url == null ? null : url.getParameter(key);
        if (configured != null) {
            for (String part : configured.split(",")) {
                String name = part.strip();
                if (name.isEmpty()) {
                    continue;
                }
                if (name.startsWith(REMOVE_PREFIX)) {
                    removed.add(name.substring(1).strip());
                } else if (!explicit.contains(name)) {
                    explicit.add(name);
                }
            }
        }
        List<String> automatic = new ArrayList<>();
        if (!removed.contains(DEFAULT_MARKER)) {
            List<ExtensionClasses.Named> candidates = new ArrayList<>();
            for (ExtensionClasses.Named named : classes.all().values()) {
                Activate activate = named.type().getAnnotation(Activate.class);
                if (activate != null && !explicit.contains(named.name()) && !removed.contains(named.name())
                        && groupMatches(activate, group) && keysPresent(activate, url)
                        && named.name().equals(classes.nameOf(named.type()))) {
                    candidates.add(named);
                }
            }
            candidates.sort(Comparator.comparingInt((ExtensionClasses.Named n) -> n.type().getAnnotation(Activate.class).order())
                    .thenComparing(ExtensionClasses.Named::name));
            for (ExtensionClasses.Named named : candidates) {
                automatic.add(named.name());
            }
        }
        List<String> result = new ArrayList<>();
        if (!explicit.contains(DEFAULT_MARKER)) {
            result.addAll(automatic);
        }
        for (String name : explicit) {
            if (name.equals(DEFAULT_MARKER)) {
                result.addAll(automatic);
            } else if (!removed.contains(name)) {
                result.add(name);
            }
        }
        return result;
    }

    private static boolean groupMatches(Activate activate, String group) {
        if (group == null || group.isEmpty() || activate.group().length == 0) {
            return true;
        }
        return Arrays.asList(activate.group()).contains(group);
    }

    private static boolean keysPresent(Activate activate, URL url) {
        if (activate.value().length == 0) {
            return true;
        }
        if (url == null) {
            return false;
        }
        for (String key : activate.value()) {
            for (Map.Entry<String, String> parameter : url.getParameters().entrySet()) {
                String name = parameter.getKey();
                if ((name.equals(key) || name.endsWith("." + key)) && !parameter.getValue().isEmpty()) {
                    return true;
                }
            }
        }
        return false;
    }
}
