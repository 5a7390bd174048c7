package dev.weft.rpc.spi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes an extension activate automatically in
 * {@link ExtensionLoader#getActivateExtensions(dev.weft.rpc.common.URL, String, String)}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Activate {

    /** Groups in which the extension activates; empty means every group. */
    String[] group() default {};

    /**
     * URL keys of which at least one must be switched on for activation; empty means always. A key
     * is on when the URL has it (or {@code <method>.key}) with a value other than empty, {@code false},
     * {@code 0}, {@code null} or {@code off} (ignoring case).
     */
    String[] value() default {};

    /** Lower comes first; ties are broken by extension name. */
    int order() default 0;
}
