package dev.weft.rpc.spi.internal;

/**
 * Something wrong with an extension point's descriptors or classes.
 *
 * @param name    the extension name concerned, or {@code null} when the problem names none
 * @param source  where: {@code file:line}, or a file, or a class
 * @param message what is wrong, in the form {@code what: value (expected: rule)}
 */
public record ExtensionProblem(String name, String source, String message) {

    @Override
    public String toString() {
        return (name == null ? "" : "'" + name + "' ") + "at " + source + ": " + message;
    }
}
