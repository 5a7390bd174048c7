package dev.weft.rpc.spi;

/** SKELETON — being implemented. */
public final class ExtensionDirector implements AutoCloseable {
    public ExtensionDirector(ClassLoader classLoader) { }
    public static ExtensionDirector getDefault() { throw new UnsupportedOperationException("skeleton"); }
    public <T> ExtensionLoader<T> getExtensionLoader(Class<T> type) { throw new UnsupportedOperationException("skeleton"); }
    @Override
    public void close() { }
}
