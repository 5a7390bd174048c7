package dev.weft.rpc.spi.internal;

import java.util.List;

/**
 * One meaningful line of an extension descriptor: the names it declares and the class it binds.
 *
 * @param names      the declared names; empty when the line names only a class
 * @param className  the binary class name
 * @param source     where the line is: {@code file:line}
 * @param classLoader the class loader that found the file, which loads the class
 */
public record DescriptorLine(List<String> names, String className, String source, ClassLoader classLoader) {

    public DescriptorLine {
        names = List.copyOf(names);
    }
}
