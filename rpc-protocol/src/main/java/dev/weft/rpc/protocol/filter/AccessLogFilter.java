package dev.weft.rpc.protocol.filter;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.protocol.ServiceKey;
import dev.weft.rpc.protocol.UrlCheckingFilter;
import dev.weft.rpc.spi.Activate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Provider filter {@value #NAME}, off by default: with {@value #ACCESSLOG_KEY}{@code =true} on the
 * export URL it writes one INFO line per call to the slf4j logger {@value #LOGGER_NAME}:
 * <pre>service=com.example.Greeter:1.0 method=greet(java.lang.String) application=shop outcome=ok micros=412</pre>
 * {@code application} is the caller's (the {@code context} attachment; {@code -} when unknown;
 * chosen by the caller, so spaces, line breaks and backslashes in it are written as
 * <code>&#92;uXXXX</code> and it is cut to {@value #MAX_APPLICATION_CHARS} characters);
 * {@code outcome} is {@code ok}, {@code threw <exception class>} (the service's own exception) or
 * {@code failed <exception class>} (the call did not complete, e.g. "server busy"). Arguments
 * and results are never logged. Outermost provider filter, so refused calls are logged too. The
 * line is written at the real end of the call (an async implementation's when its future completes).
 *
 * <p>Active only when the key is present; {@code accesslog=false} turns it off; another value
 * fails the export. Thread-safe.
 */
@Activate(group = FilterChain.PROVIDER, value = AccessLogFilter.ACCESSLOG_KEY, order = -20_000)
public final class AccessLogFilter implements UrlCheckingFilter {

    /** The extension name. */
    public static final String NAME = "accesslog";
    /** URL key (provider): {@code true} logs one line per call; default {@code false}. */
    public static final String ACCESSLOG_KEY = "accesslog";
    /** The slf4j logger the lines go to. */
    public static final String LOGGER_NAME = "dev.weft.rpc.accesslog";
    /** The most characters of the caller's application a line shows. */
    static final int MAX_APPLICATION_CHARS = 256;

    private final Logger log;
    private final Ticker ticker;

    /** Logs to {@value #LOGGER_NAME}, timing with the system ticker. */
    public AccessLogFilter() {
        this(LoggerFactory.getLogger(LOGGER_NAME), Ticker.systemTicker());
    }

    /** Logs to {@code log}, timing with {@code ticker}. */
    AccessLogFilter(Logger log, Ticker ticker) {
        this.log = Objects.requireNonNull(log, "log");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
    }

    @Override
    public void checkUrl(URL url) {
        UrlKeys.checkBooleans(url, ACCESSLOG_KEY);
    }

    @Override
    public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
        URL url = next.getUrl();
        if (!url.getParameter(ACCESSLOG_KEY, false) || !log.isInfoEnabled()) {
            return next.invoke(invocation);
        }
        long start = ticker.read();
        Result result;
        try {
            result = next.invoke(invocation);
        } catch (RuntimeException | Error e) {
            log(url, next, invocation, start, "failed " + e.getClass().getName());
            throw e;
        }
        return result.whenComplete((value, failure) -> log(url, next, invocation, start, failure != null
                ? "failed " + failure.getClass().getName()
                : value.hasException() ? "threw " + value.getException().getClass().getName() : "ok"));
    }

    private void log(URL url, Invoker<?> next, Invocation invocation, long start, String outcome) {
        long micros = TimeUnit.NANOSECONDS.toMicros(ticker.read() - start);
        log.info("service={} method={} application={} outcome={} micros={}", serviceOf(url, next),
                RpcInvocation.signature(invocation), applicationOf(invocation), outcome, micros);
    }

    /**
     * The caller's application as one field: the caller chose it, so a line break, a space or a
     * backslash in it is written as <code>&#92;uXXXX</code> (it can neither start a forged line nor
     * a forged field), and it is cut to {@value #MAX_APPLICATION_CHARS} characters.
     */
    private static String applicationOf(Invocation invocation) {
        String application = invocation.getAttachment(ContextFilter.APPLICATION_KEY);
        if (application == null || application.isEmpty()) {
            return "-";
        }
        int shown = Math.min(application.length(), MAX_APPLICATION_CHARS);
        StringBuilder field = new StringBuilder(shown + 16);
        for (int i = 0; i < shown; i++) {
            char c = application.charAt(i);
            if (c == '\\' || Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c)
                    || Character.getType(c) == Character.FORMAT) {
                field.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
            } else {
                field.append(c);
            }
        }
        if (application.length() > shown) {
            field.append("...(+").append(application.length() - shown).append(')');
        }
        return field.toString();
    }

    private static String serviceOf(URL url, Invoker<?> invoker) {
        try {
            return ServiceKey.of(url).toString();
        } catch (IllegalArgumentException e) {
            return invoker.getInterface().getName();
        }
    }
}
