package dev.weft.rpc.common;

import java.util.Collection;

/**
 * Finds the closest known name to a mistyped one, for the "did you mean" hints of error messages
 * (extension names, mock keywords). Stateless and thread-safe.
 */
public final class NameSuggestions {

    private NameSuggestions() {
    }

    /**
     * The closest candidate, or {@code null} when none is close: a candidate differing only in case
     * ({@code RANDOM} for {@code random}) wins outright; otherwise the first candidate (in iteration
     * order) with the smallest edit distance, if that distance is at most max(2, length/3).
     */
    public static String closest(String wanted, Collection<String> candidates) {
        if (wanted == null) {
            return null;
        }
        for (String candidate : candidates) {
            if (candidate.equalsIgnoreCase(wanted)) {
                return candidate;
            }
        }
        String best = null;
        int bestDistance = Math.max(2, wanted.length() / 3) + 1;
        for (String candidate : candidates) {
            int distance = distance(wanted, candidate);
            if (distance < bestDistance) {
                bestDistance = distance;
                best = candidate;
            }
        }
        return best;
    }

    /** The Levenshtein distance between {@code a} and {@code b}, case-sensitive. */
    public static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
