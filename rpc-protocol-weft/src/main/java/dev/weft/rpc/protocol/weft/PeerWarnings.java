package dev.weft.rpc.protocol.weft;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.ThrottledLog;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * Rate-limited warnings with one limit per kind of event: a flood of one kind (malformed frames,
 * a thousand unreachable providers) never hides a line of another (a connection closed for
 * exceeding a memory budget). Each kind writes at most one line per interval, carrying the count
 * of the occurrences it stands for. Thread-safe.
 */
final class PeerWarnings {

    /** What happened; each has its own limit. */
    enum Kind {
        /** Bytes that are not a valid frame; the connection is closed. */
        MALFORMED_FRAME,
        /** A request over {@code payload}, refused. */
        OVERSIZED_REQUEST,
        /** A peer silent for 3 heartbeats, closed. */
        SILENT_PEER,
        /** A connection closed after an unexpected failure. */
        CONNECTION_FAILURE,
        /** An answer that could not be encoded (its caller got an error instead). */
        ANSWER_NOT_ENCODED,
        /** A request refused or a connection closed for a memory budget or a too slow upload. */
        OVER_BUDGET,
        /** A provider that cannot be connected to (each address retries with backoff). */
        CANNOT_CONNECT,
        /** A peer that misbehaved in another way (late answers, lost connections). */
        PEER
    }

    private final Map<Kind, ThrottledLog> logs;

    PeerWarnings(Logger logger, Ticker ticker, Duration interval) {
        Map<Kind, ThrottledLog> byKind = new EnumMap<>(Kind.class);
        for (Kind kind : Kind.values()) {
            byKind.put(kind, new ThrottledLog(logger, ticker, interval));
        }
        this.logs = byKind;
    }

    void warn(Kind kind, String message) {
        logs.get(kind).warn(message);
    }

    /** The limiter of one kind. */
    ThrottledLog of(Kind kind) {
        return logs.get(kind);
    }
}
