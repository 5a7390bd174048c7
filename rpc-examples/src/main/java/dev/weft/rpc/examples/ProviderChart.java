package dev.weft.rpc.examples;

import java.util.List;
import java.util.Locale;

/**
 * The per-provider ASCII bar chart of one scenario: attempts that reached each provider, scaled
 * to the busiest one; {@code #} marks answered attempts and {@code x} failed ones. Stateless.
 */
final class ProviderChart {

    static final int WIDTH = 40;

    private ProviderChart() {
    }

    static String render(List<ScenarioResult> results) {
        StringBuilder sb = new StringBuilder();
        for (ScenarioResult result : results) {
            sb.append(render(result));
        }
        return sb.toString();
    }

    static String render(ScenarioResult result) {
        long max = 1;
        int nameWidth = 1;
        long total = 0;
        for (ScenarioResult.ProviderTally p : result.providers()) {
            max = Math.max(max, p.attempts());
            nameWidth = Math.max(nameWidth, p.name().length());
            total += p.attempts();
        }
        StringBuilder sb = new StringBuilder(result.title()).append(System.lineSeparator());
        for (ScenarioResult.ProviderTally p : result.providers()) {
            int bar = (int) Math.round((double) WIDTH * p.attempts() / max);
            int failed = p.attempts() == 0 ? 0 : (int) Math.round((double) bar * p.failures() / p.attempts());
            String share = total == 0 ? "" : String.format(Locale.ROOT, "%5.1f%%", 100.0 * p.attempts() / total);
            sb.append(String.format(Locale.ROOT, "  %-" + nameWidth + "s |%s%s%s| %6d %s%s%n", p.name(),
                    "#".repeat(bar - failed), "x".repeat(failed), " ".repeat(WIDTH - bar), p.attempts(), share,
                    p.failures() == 0 ? "" : "  (" + p.failures() + " failed)"));
        }
        return sb.toString();
    }
}
