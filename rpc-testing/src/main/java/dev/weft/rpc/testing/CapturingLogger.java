package dev.weft.rpc.testing;

import com.google.common.collect.ImmutableList;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An slf4j {@link org.slf4j.Logger} that keeps what is logged to it, for tests of log output:
 * rate-limited warnings, access logs. Hand it to the code under test where that code takes a
 * logger. Every level is enabled. Each line is the level, a space and the formatted message
 * ({@code "WARN closing /127.0.0.1:50412"}); the throwable, when there is one, is counted, not kept.
 * Thread-safe.
 */
public final class CapturingLogger extends LegacyAbstractLogger {

    private static final long serialVersionUID = 1L;

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final AtomicInteger throwables = new AtomicInteger();

    /** A logger named {@code "capturing"}. */
    public CapturingLogger() {
        this.name = "capturing";
    }

    /** The lines logged so far, oldest first. */
    public List<String> lines() {
        return ImmutableList.copyOf(lines);
    }

    /** How many of the lines carried a throwable (a stack trace, in a real log). */
    public int throwables() {
        return throwables.get();
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
                                               Throwable throwable) {
        lines.add(level + " " + MessageFormatter.basicArrayFormat(messagePattern, arguments));
        if (throwable != null) {
            throwables.incrementAndGet();
        }
    }

    @Override
    public boolean isTraceEnabled() {
        return true;
    }

    @Override
    public boolean isDebugEnabled() {
        return true;
    }

    @Override
    public boolean isInfoEnabled() {
        return true;
    }

    @Override
    public boolean isWarnEnabled() {
        return true;
    }

    @Override
    public boolean isErrorEnabled() {
        return true;
    }
}
