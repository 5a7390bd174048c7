package dev.weft.rpc.metrics.micrometer;

/** The service the metrics tests export and refer. */
public interface Shop {

    /** Answers at once. */
    String greet(String name);

    /** Answers with an {@link IllegalArgumentException} (a business failure). */
    String fail(String name);

    /** Answers once released, or after about 2 s. */
    String hold(String name);
}
