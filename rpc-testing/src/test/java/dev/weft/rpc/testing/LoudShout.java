package dev.weft.rpc.testing;

import java.util.Locale;

/** {@code loud}: upper case; records whether its director closed it. */
public class LoudShout implements Shout, AutoCloseable {

    private volatile boolean closed;

    @Override
    public String shout(String text) {
        return text.toUpperCase(Locale.ROOT);
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
    }
}
