package dev.weft.rpc.tracing.opentelemetry;

/** The service the tracing tests export and refer. */
public interface Shop {

    /** Answers at once. */
    String greet(String name);

    /** Answers with an {@link IllegalArgumentException} (a business failure). */
    String fail(String name);

    /** Answers after about {@code millis}. */
    String sleep(long millis);
}
