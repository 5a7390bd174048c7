package dev.weft.rpc.tracing.opentelemetry;

/** {@link Shop} answering {@code id:name}. */
class ShopImpl implements Shop {

    private final String id;

    ShopImpl(String id) {
        this.id = id;
    }

    @Override
    public String greet(String name) {
        return id + ":" + name;
    }

    @Override
    public String fail(String name) {
        throw new IllegalArgumentException("no " + name);
    }

    @Override
    public String sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return id + ":slept";
    }
}
