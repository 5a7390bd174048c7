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
 * matches all), and when {@link Activate#value()} lists keys, at least one of them switched on in
 * the URL; sorted by order, then name. A key {@code trace} is switched on by a parameter named
 * exactly {@code trace} or {@code <method>.trace} (one segment, a Java identifier, before the
 * key: the URL grammar's method-level form) whose value is not one of the off values: empty,
 * {@code false}, {@code 0}, {@code null}, {@code off} (ignoring case). {@code a.b.trace} and
 * {@code x-trace} do not name the key. Explicit ones: the
 * comma-separated names in the URL parameter {@code key}; {@code -name} removes one,
 * {@code -default} removes all automatic ones, {@code default} marks where the automatic ones go
 * (at the front when absent). Stateless.
 */
final class ActivateSelector {

    public static final String DEFAULT_MARKER = "default";
    private static final String REMOVE_PREFIX = "-";
    /** Values that leave an {@link Activate#value()} key switched off, compared ignoring case. */
    static final List<String> OFF_VALUES = List.of("false", "0", "null", "off");

    private ActivateSelector() {
    }

    /**
     * The names the URL parameter {@code key} lists: those to add, in order and once each, and those
     * to remove ({@code -name}, without the dash). Empty parts ({@code a,,b}) are skipped.
     *
     * @throws IllegalStateException when a part is a lone {@code -}
     */
    record Listed(List<String> explicit, Set<String> removed) {

        static Listed of(URL url, String key) {
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
                        String target = name.substring(1).strip();
                        if (target.isEmpty()) {
                            throw new IllegalStateException("URL parameter " + key + ": " + configured
                                    + " (expected: names separated by ',', each optionally after '-' to remove it; found a '-' naming nothing)");
                        }
                        removed.add(target);
                    } else if (!explicit.contains(name)) {
                        explicit.add(name);
                    }
                }
            }
            return new Listed(List.copyOf(explicit), Set.copyOf(removed));
        }

        /** Every extension name listed, added or removed, without the {@code default} marker. */
        Set<String> names() {
            Set<String> names = new LinkedHashSet<>(explicit);
            names.addAll(removed);
            names.remove(DEFAULT_MARKER);
            return names;
        }
    }

    public static List<String> select(ExtensionClasses classes, URL url, String key, String group) {
        Listed listed = Listed.of(url, key);
        List<String> explicit = listed.explicit();
        Set<String> removed = listed.removed();
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
                if (namesKey(parameter.getKey(), key) && isOn(parameter.getValue())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@code parameter} is {@code key} itself or {@code <method>.key} with a single-identifier method. */
    static boolean namesKey(String parameter, String key) {
        if (parameter.equals(key)) {
            return true;
        }
        int methodLength = parameter.length() - key.length() - 1;
        if (methodLength <= 0 || !parameter.endsWith(key) || parameter.charAt(methodLength) != '.') {
            return false;
        }
        if (!Character.isJavaIdentifierStart(parameter.charAt(0))) {
            return false;
        }
        for (int i = 1; i < methodLength; i++) {
            if (!Character.isJavaIdentifierPart(parameter.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    static boolean isOn(String value) {
        for (String off : OFF_VALUES) {
            if (off.equalsIgnoreCase(value)) {
                return false;
            }
        }
        return !value.isEmpty();
    }
}
