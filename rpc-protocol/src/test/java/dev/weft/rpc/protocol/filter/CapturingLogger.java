package dev.weft.rpc.protocol.filter;

import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An slf4j logger that keeps every formatted line, for tests that check log output. */
final class CapturingLogger extends LegacyAbstractLogger {

    private static final long serialVersionUID = 1L;

    private final List<String> lines = new CopyOnWriteArrayList<>();

    CapturingLogger() {
        this.name = "capturing";
    }

    List<String> lines() {
        return lines;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
                                               Throwable throwable) {
        lines.add(level + " " + MessageFormatter.basicArrayFormat(messagePattern, arguments));
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
