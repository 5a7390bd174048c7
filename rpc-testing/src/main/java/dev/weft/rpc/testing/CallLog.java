package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invocation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The calls several {@link FakeProvider}s received, in the order they arrived: what a test reads
 * to check which providers a strategy tried and in which order ({@code failover} tried
 * {@code a}, then {@code c}).
 *
 * <p>Thread-safe: providers append from any thread; reads return copies.
 */
public final class CallLog {

    /** One call: the provider that received it and the invocation. */
    public record Entry(String provider, Invocation invocation) {

        public Entry {
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(invocation, "invocation");
        }

        /** {@code a.greet}: provider and method. */
        @Override
        public String toString() {
            return provider + "." + invocation.getMethodName();
        }
    }

    private final List<Entry> entries = new ArrayList<>();

    /** An empty log; attach it with {@link FakeProvider#loggingTo(CallLog)}. */
    public CallLog() {
    }

    /** A log attached to each of {@code providers}. */
    public static CallLog of(Iterable<? extends FakeProvider<?>> providers) {
        Objects.requireNonNull(providers, "providers");
        CallLog log = new CallLog();
        for (FakeProvider<?> provider : providers) {
            provider.loggingTo(log);
        }
        return log;
    }

    synchronized void add(String provider, Invocation invocation) {
        entries.add(new Entry(provider, invocation));
    }

    /** Every call so far, oldest first. */
    public synchronized List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** The name of the provider of every call so far, oldest first: {@code [a, c, a]}. */
    public synchronized List<String> providers() {
        List<String> names = new ArrayList<>(entries.size());
        for (Entry entry : entries) {
            names.add(entry.provider());
        }
        return names;
    }

    /** Calls so far. */
    public synchronized int size() {
        return entries.size();
    }

    /** Forgets every call so far. */
    public synchronized void clear() {
        entries.clear();
    }

    /** {@code CallLog[a.greet, c.greet]}. */
    @Override
    public synchronized String toString() {
        return "CallLog" + entries;
    }
}
