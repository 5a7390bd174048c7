package dev.weft.rpc.examples;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * A one-line progress bar redrawn in place with {@code \r}; silent when disabled (output is not
 * a console), so logs and pipes stay clean. {@link #advance()} is thread-safe and cheap;
 * {@link #draw(String)} and {@link #finish()} are called by one thread.
 */
final class ProgressBar {

    private static final int WIDTH = 30;

    private final PrintStream out;
    private final boolean enabled;
    private final long total;
    private final LongAdder done = new LongAdder();

    ProgressBar(PrintStream out, boolean enabled, long total) {
        this.out = Objects.requireNonNull(out, "out");
        this.enabled = enabled;
        this.total = Math.max(1, total);
    }

    void advance() {
        done.increment();
    }

    long done() {
        return done.sum();
    }

    /** Redraws the bar with {@code label} (the running scenario). */
    void draw(String label) {
        if (!enabled) {
            return;
        }
        out.print('\r' + line(done.sum(), total, label));
        out.flush();
    }

    /** Redraws the bar at {@code doneNow} of the total (a bar driven by time rather than by calls). */
    void drawAt(long doneNow, String label) {
        if (!enabled) {
            return;
        }
        out.print('\r' + line(doneNow, total, label));
        out.flush();
    }

    /** Clears the bar's line. */
    void finish() {
        if (enabled) {
            out.print('\r' + " ".repeat(WIDTH + 60) + '\r');
            out.flush();
        }
    }

    /** The bar's text, e.g. {@code [#######.......]  25%  8000/32000  failover + random}. */
    static String line(long done, long total, String label) {
        long clamped = Math.min(done, total);
        int filled = (int) (WIDTH * clamped / total);
        String shown = label.length() > 40 ? label.substring(0, 40) : label;
        return String.format(Locale.ROOT, "[%s%s] %3d%%  %d/%d  %-40s", "#".repeat(filled), ".".repeat(WIDTH - filled),
                100 * clamped / total, clamped, total, shown);
    }
}
