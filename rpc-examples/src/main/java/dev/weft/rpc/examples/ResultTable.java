package dev.weft.rpc.examples;

import java.util.List;
import java.util.Locale;

/**
 * The plain-text results: one row per scenario, then the consumer URL of each, then the most
 * frequent failure of each scenario that had failures. Stateless.
 */
final class ResultTable {

    static final List<String> COLUMNS = List.of("scenario", "ok", "empty", "mocked", "failed", "p50", "p99", "retries");

    private ResultTable() {
    }

    static String render(List<ScenarioResult> results) {
        int titleWidth = "scenario".length();
        for (ScenarioResult result : results) {
            titleWidth = Math.max(titleWidth, result.title().length());
        }
        String row = "%-" + titleWidth + "s %7s %7s %7s %7s %8s %8s %8s%n";
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, row, COLUMNS.toArray()));
        for (ScenarioResult r : results) {
            sb.append(String.format(Locale.ROOT, row, r.title(), r.ok(), r.empty(), r.mocked(), r.failed(),
                    Durations.format(r.p50Nanos()), Durations.format(r.p99Nanos()), r.retries()));
        }
        sb.append(System.lineSeparator()).append("consumer URLs:").append(System.lineSeparator());
        for (ScenarioResult r : results) {
            sb.append(String.format(Locale.ROOT, "  %-" + titleWidth + "s %s%n", r.title(), r.parameters()));
        }
        boolean header = false;
        for (ScenarioResult r : results) {
            if (r.topError() == null) {
                continue;
            }
            if (!header) {
                sb.append(System.lineSeparator()).append("most frequent failure:").append(System.lineSeparator());
                header = true;
            }
            sb.append(String.format(Locale.ROOT, "  %-" + titleWidth + "s %d x %s: %s%n", r.title(),
                    r.topError().count(), r.topError().kind(), abbreviate(r.topError().sample(), 110)));
        }
        return sb.toString();
    }

    static String abbreviate(String text, int max) {
        String oneLine = text.replace('\n', ' ').replace('\r', ' ');
        return oneLine.length() <= max ? oneLine : oneLine.substring(0, max - 3) + "...";
    }
}
