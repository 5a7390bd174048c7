package dev.weft.rpc.spi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Tunes a wrapper extension (a class with a public constructor taking the extension type).
 * Wrappers without this annotation wrap every extension with order 0.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Wrapper {

    /** Extension names this wrapper applies to; empty means all. */
    String[] matches() default {};

    /** Extension names this wrapper never applies to. */
    String[] mismatches() default {};

    /**
     * Lower is outermost; ties are broken by class name. Built-in wrappers declare orders away
     * from the default 0 (the mock cluster wrapper: {@code 1000}, inside every wrapper of a lower
     * order), so a wrapper with the default order lands in the same place whatever its package;
     * docs/extension.md lists the built-in values.
     */
    int order() default 0;
}
