package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A registry whose notifications the test sends by hand. */
final class ManualRegistry implements Registry {

    final Map<NotifyListener, URL> listeners = new ConcurrentHashMap<>();
    /** What {@link #isAvailable()} says (connected). */
    volatile boolean available = true;

    void notifyAll(List<URL> urls) {
        listeners.keySet().forEach(l -> l.notify(urls));
    }

    @Override
    public URL getUrl() {
        return URL.valueOf("manual://registry");
    }

    @Override
    public boolean isAvailable() {
        return available;
    }

    @Override
    public void destroy() {
        close();
    }

    @Override
    public void register(URL url) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void unregister(URL url) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void subscribe(URL url, NotifyListener listener) {
        listeners.put(listener, url);
    }

    @Override
    public void unsubscribe(URL url, NotifyListener listener) {
        listeners.remove(listener, url);
    }

    @Override
    public List<URL> lookup(URL url) {
        return List.of();
    }

    @Override
    public void close() {
        listeners.clear();
    }
}
