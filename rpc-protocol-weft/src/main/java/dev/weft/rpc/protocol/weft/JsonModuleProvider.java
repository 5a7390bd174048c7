package dev.weft.rpc.protocol.weft;

import com.fasterxml.jackson.databind.Module;
import dev.weft.rpc.spi.SPI;

/**
 * A Jackson {@link Module} the {@code json} serialization registers, for types it does not carry
 * on its own (a money type, a Guava collection, a value class with its own serializers).
 *
 * <p>Declared like any Weft extension: a line {@code name=com.example.MoneyJsonModule} in
 * {@code META-INF/rpc/dev.weft.rpc.protocol.weft.JsonModuleProvider} on the class path. The
 * serialization of an {@code ExtensionDirector} asks that director for every provider, in the
 * order of their names, once, when it first needs its mapper; their modules are registered after
 * the built-in ones (JDK 8 types, {@code java.time}), so a module may replace a built-in
 * serializer. A module must not enable default typing or any other way to name a class in the
 * input: types still come from the declared method signatures only.
 *
 * <p>Implementations need a public no-argument constructor and must be thread-safe.
 */
@SPI
public interface JsonModuleProvider {

    /** The module to register; called once per serialization. */
    Module module();
}
