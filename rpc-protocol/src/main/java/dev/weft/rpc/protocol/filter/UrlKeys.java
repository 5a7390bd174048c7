package dev.weft.rpc.protocol.filter;

import com.google.common.primitives.Ints;
import dev.weft.rpc.common.URL;

import java.util.Map;

import static com.google.common.base.Preconditions.checkArgument;

/** Checks of the URL keys the built-in filters read, in each form ({@code key} and {@code method.key}). */
final class UrlKeys {

    private UrlKeys() {
    }

    /** Every form of {@code key} on {@code url} is an integer >= 0. */
    static void checkNonNegativeInts(URL url, String key) {
        for (String name : url.getParameters().keySet()) {
            if (isFormOf(name, key)) {
                int value = url.getParameter(name, 0);
                checkArgument(value >= 0, "URL parameter %s: %s (expected: >= 0, 0 means no limit) in %s", name, value, url);
            }
        }
    }

    /** Every form of {@code key} on {@code url} is an integer >= 0 or the word {@code word}. */
    static void checkNonNegativeIntsOr(URL url, String key, String word) {
        for (Map.Entry<String, String> parameter : url.getParameters().entrySet()) {
            String name = parameter.getKey();
            if (isFormOf(name, key) && !word.equals(parameter.getValue().trim())) {
                Integer value = Ints.tryParse(parameter.getValue().trim());
                checkArgument(value != null && value >= 0, "URL parameter %s: %s (expected: %s>= 0, 0 means no limit,"
                        + " or %s) in %s", name, parameter.getValue(), value == null ? "an integer " : "", word, url);
            }
        }
    }

    /** Every form of {@code key} on {@code url} is {@code true} or {@code false}. */
    static void checkBooleans(URL url, String key) {
        for (String name : url.getParameters().keySet()) {
            if (isFormOf(name, key)) {
                url.getParameter(name, false);
            }
        }
    }

    private static boolean isFormOf(String name, String key) {
        return name.equals(key) || name.endsWith("." + key);
    }
}
