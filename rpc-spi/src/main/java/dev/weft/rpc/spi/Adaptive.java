package dev.weft.rpc.spi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a class: that class is the hand-written adaptive extension of its extension point.
 *
 * <p>On an interface method: the loader generates an adaptive extension whose method finds the
 * {@link dev.weft.rpc.common.URL} among the arguments, reads the extension name from the URL
 * keys in {@link #value()} (first present wins, then the {@link SPI} default) and delegates to
 * that extension. With no keys, the key is the interface's simple name split at case changes and
 * joined by dots ({@code LoadBalance} -> {@code load.balance}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Adaptive {

    /** The URL keys naming the extension, tried in order. */
    String[] value() default {};
}
