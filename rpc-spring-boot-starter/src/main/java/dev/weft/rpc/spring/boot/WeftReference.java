package dev.weft.rpc.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Injects into the annotated field of a bean a reference to the Weft service of the field's type
 * (an interface), referred with {@code weft.consumer.parameters} and then {@link #parameters()} on
 * top. Fields with equal type and parameters share one reference. The bean is destroyed before the
 * references are closed, so it may still call them while it shuts down. Attribute values resolve
 * {@code ${...}} placeholders; an unknown URL key, a bad value or (with {@code check=true}, the
 * default) no provider within {@code timeout} fails start-up naming the bean and the field.
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface WeftReference {

    /** Consumer URL keys as a query string ({@code loadbalance=p2c&timeout=300&mock=fail:return null}). */
    String parameters() default "";

    /**
     * Direct provider URLs, comma-separated (the consumer key {@code url}), bypassing the registry:
     * {@code weft://127.0.0.1:20880}.
     */
    String url() default "";
}
