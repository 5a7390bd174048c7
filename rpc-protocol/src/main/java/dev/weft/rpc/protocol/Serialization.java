package dev.weft.rpc.protocol;

import dev.weft.rpc.spi.SPI;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;

/**
 * The wire format of arguments, results and error details, chosen per exported service by the
 * provider URL key {@code serialization} (default {@code json}).
 *
 * <p>Every value is written and read against a <em>declared</em> Java type (a method's generic
 * parameter or return type), never against a type named in the bytes: an implementation must not
 * load, initialise or instantiate a class whose name came from its input, and must bound what
 * its input can make it allocate (string and number lengths, nesting depth).
 *
 * <p>Implementations are shared by every connection and must be thread-safe; the streams they
 * return are used by one thread at a time.
 */
@SPI("json")
public interface Serialization {

    /**
     * The stable id written in every frame header that carries this format: 1 to 127, unique
     * among the installed serializations, never reused for another format. A provider refuses a
     * frame whose id differs from its service's.
     */
    byte getId();

    /** A writer of consecutive values to {@code out}; it does not close {@code out}. */
    ObjectOutput serialize(OutputStream out) throws IOException;

    /** A reader of consecutive values from {@code in}; it does not close {@code in}. */
    ObjectInput deserialize(InputStream in) throws IOException;

    /**
     * Refuses a type this format cannot write or read as declared, so that a method using it
     * fails at export and refer rather than at its first call. The default accepts every type.
     *
     * @param declaredType a method's generic parameter or return type
     * @throws IllegalArgumentException naming the type and why it cannot be carried
     */
    default void checkSupported(Type declaredType) {
    }

    /** Writes values one after another; {@link #flush()} once after the last one. */
    interface ObjectOutput {

        /** Writes {@code value} (may be {@code null}) as an instance of {@code declaredType}. */
        void writeObject(Object value, Type declaredType) throws IOException;

        /** Pushes everything written so far to the underlying stream. */
        void flush() throws IOException;
    }

    /** Reads values in the order they were written. */
    interface ObjectInput {

        /**
         * Reads the next value as an instance of {@code declaredType} (a primitive type reads its
         * wrapper; {@code null} is returned as written).
         *
         * @throws IOException when the input is malformed, exceeds the format's limits, or does
         *                     not fit {@code declaredType}
         */
        Object readObject(Type declaredType) throws IOException;

        /**
         * Checks that nothing follows the values read (a request with more arguments than its
         * method declares, trailing bytes). The default checks nothing.
         *
         * @throws IOException naming what follows
         */
        default void requireEnd() throws IOException {
        }
    }
}
