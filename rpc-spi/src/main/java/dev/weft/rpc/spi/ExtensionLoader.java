package dev.weft.rpc.spi;

import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.Set;

/** SKELETON — being implemented. */
public final class ExtensionLoader<T> {
    public static <T> ExtensionLoader<T> getExtensionLoader(Class<T> type) {
        return ExtensionDirector.getDefault().getExtensionLoader(type);
    }
    public T getExtension(String name) { throw new UnsupportedOperationException("skeleton"); }
    public T getExtension(String name, boolean wrap) { throw new UnsupportedOperationException("skeleton"); }
    public T getDefaultExtension() { throw new UnsupportedOperationException("skeleton"); }
    public String getDefaultExtensionName() { throw new UnsupportedOperationException("skeleton"); }
    public T getAdaptiveExtension() { throw new UnsupportedOperationException("skeleton"); }
    public boolean hasExtension(String name) { throw new UnsupportedOperationException("skeleton"); }
    public Set<String> getSupportedExtensions() { throw new UnsupportedOperationException("skeleton"); }
    public List<T> getActivateExtensions(URL url, String key, String group) { throw new UnsupportedOperationException("skeleton"); }
    public String getExtensionName(Class<?> extensionClass) { throw new UnsupportedOperationException("skeleton"); }
}
