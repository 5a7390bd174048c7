package dev.weft.rpc.proxy;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.testing.FakeProvider;

/** The invokers proxies are built over in these tests: kit fakes at one URL that carries a password. */
final class ProxyTargets {

    /** Has a password (to check it is redacted in messages) and {@code proxy=javassist}. */
    static final URL URL = dev.weft.rpc.common.URL.valueOf("weft://user:secret@10.0.0.1:20880/sample?proxy=javassist");

    private ProxyTargets() {
    }

    /** A fake provider of {@code type} at {@link #URL}, answering its name until scripted otherwise. */
    static <T> FakeProvider<T> of(Class<T> type) {
        return FakeProvider.at(type, URL);
    }
}
