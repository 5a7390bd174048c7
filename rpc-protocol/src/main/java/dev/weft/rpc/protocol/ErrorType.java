package dev.weft.rpc.protocol;

import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;

/**
 * The kind of a call's failure, a small fixed set of names for metric tags and span attributes
 * ({@code error.type}), so that observing failures never adds a tag value per exception class
 * or message.
 *
 * <p>An {@link RpcException} is named by its code; any other exception is {@link #BUSINESS}
 * when the service answered with it and {@link #UNKNOWN} when a filter or protocol threw it.
 * Immutable.
 */
public enum ErrorType {

    /** No failure. */
    NONE("none"),
    /** The service answered with an exception ({@link RpcException#BIZ_EXCEPTION} or any non-RPC exception). */
    BUSINESS("business"),
    /** The transport failed ({@link RpcException#NETWORK_EXCEPTION}). */
    NETWORK("network"),
    /** The deadline passed ({@link RpcException#TIMEOUT_EXCEPTION}). */
    TIMEOUT("timeout"),
    /** The call was refused before it ran, e.g. a busy server ({@link RpcException#NOT_PROCESSED}). */
    NOT_PROCESSED("not_processed"),
    /** No provider could take the call ({@link RpcException#NO_INVOKER_AVAILABLE}). */
    NO_PROVIDER("no_provider"),
    /** The call was forbidden ({@link RpcException#FORBIDDEN_EXCEPTION}). */
    FORBIDDEN("forbidden"),
    /** The call or its answer could not be (de)serialised ({@link RpcException#SERIALIZATION_EXCEPTION}). */
    SERIALIZATION("serialization"),
    /**
     * The caller, or the strategy, cancelled it ({@link RpcException#CANCELLED}): a call whose future
     * was cancelled, or an attempt that lost to another (a forking or hedging loser).
     */
    CANCELLED("cancelled"),
    /** Anything else ({@link RpcException#UNKNOWN_EXCEPTION}, a code not listed, an exception thrown by a filter). */
    UNKNOWN("unknown");

    private final String tag;

    ErrorType(String tag) {
        this.tag = tag;
    }

    /** The name used as the tag or attribute value, e.g. {@code timeout}. */
    public String tag() {
        return tag;
    }

    /** The kind of {@code result}: {@link #NONE} without an exception, else by the exception it carries. */
    public static ErrorType of(Result result) {
        if (result == null || !result.hasException()) {
            return NONE;
        }
        Throwable answered = result.getException();
        return answered instanceof RpcException rpc ? ofCode(rpc.getCode()) : BUSINESS;
    }

    /** The kind of an exception thrown (not answered) by a call: its code for an {@link RpcException}, else {@link #UNKNOWN}. */
    public static ErrorType ofThrown(Throwable thrown) {
        return thrown instanceof RpcException rpc ? ofCode(rpc.getCode()) : UNKNOWN;
    }

    /** The kind of {@link RpcException} code {@code code}; {@link #UNKNOWN} for a code not listed. */
    public static ErrorType ofCode(int code) {
        return switch (code) {
            case RpcException.BIZ_EXCEPTION -> BUSINESS;
            case RpcException.NETWORK_EXCEPTION -> NETWORK;
            case RpcException.TIMEOUT_EXCEPTION -> TIMEOUT;
            case RpcException.NOT_PROCESSED -> NOT_PROCESSED;
            case RpcException.NO_INVOKER_AVAILABLE -> NO_PROVIDER;
            case RpcException.FORBIDDEN_EXCEPTION -> FORBIDDEN;
            case RpcException.SERIALIZATION_EXCEPTION -> SERIALIZATION;
            case RpcException.CANCELLED -> CANCELLED;
            default -> UNKNOWN;
        };
    }
}
