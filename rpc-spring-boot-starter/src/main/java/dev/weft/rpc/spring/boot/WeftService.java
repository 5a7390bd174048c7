package dev.weft.rpc.spring.boot;

import org.springframework.core.annotation.AliasFor;
import org.springframework.stereotype.Component;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Exports the annotated bean as a Weft service once the application context is refreshed, and
 * unexports it (unregistered first, calls in flight drained) before the rest of the context shuts
 * down. A Spring stereotype: component scanning finds it. {@link #url()} and {@link #parameters()}
 * resolve {@code ${...}} placeholders; an unknown URL key or a bad value fails start-up naming the
 * bean, the key, its value and the closest known key.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Component
public @interface WeftService {

    /** The bean name (as {@link Component#value()}); default: derived from the class name. */
    @AliasFor(annotation = Component.class)
    String value() default "";

    /** The service interface; default: the one interface the class implements (more than one: name it here). */
    Class<?> interfaceClass() default void.class;

    /** The provider URL ({@code weft://127.0.0.1:20880}); default: {@code weft.provider.url}. */
    String url() default "";

    /** Provider URL keys added to the URL, as a query string ({@code weight=200&threads=50}). */
    String parameters() default "";
}
