package dev.weft.rpc.spi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an interface as an extension point: its implementations are listed in
 * {@code META-INF/rpc/<interface binary name>} and obtained by name from an {@link ExtensionLoader}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface SPI {

    /** The default extension name, or {@code ""} for none. */
    String value() default "";
}
