package dev.weft.rpc.common;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InvokerViewUnwrapTest {

    @Test
    void unwrap_plainInvoker_isItself() {
        Invoker<Runnable> provider = new Plain(URL.valueOf("tri://h:1/svc"));

        assertThat(InvokerView.unwrap(provider)).isSameAs(provider);
    }

    @Test
    void unwrap_chainOfViews_reachesTheInvokerAtTheBottom() {
        Invoker<Runnable> provider = new Plain(URL.valueOf("tri://h:1/svc"));
        Invoker<Runnable> view = new View(new View(provider, "weight=50"), "weight=10");

        assertThat(InvokerView.unwrap(view)).isSameAs(provider);
    }

    @Test
    void rpcException_notProcessedCode_isNotProcessedOnly() {
        RpcException refused = new RpcException(RpcException.NOT_PROCESSED, "queue full");
        RpcException network = new RpcException(RpcException.NETWORK_EXCEPTION, "reset");

        assertThat(refused.isNotProcessed()).isTrue();
        assertThat(refused.isNetwork()).isFalse();
        assertThat(network.isNotProcessed()).isFalse();
    }

    private static class Plain implements Invoker<Runnable> {
        private final URL url;

        Plain(URL url) {
            this.url = url;
        }

        @Override
        public Class<Runnable> getInterface() {
            return Runnable.class;
        }

        @Override
        public Result invoke(Invocation invocation) {
            throw new RpcException("not called in this test");
        }

        @Override
        public URL getUrl() {
            return url;
        }

        @Override
        public boolean isAvailable() {
            return true;
        }

        @Override
        public void destroy() {
        }
    }

    private static final class View extends Plain implements InvokerView<Runnable> {
        private final Invoker<Runnable> underlying;

        View(Invoker<Runnable> underlying, String query) {
            super(URL.valueOf("tri://h:1/svc?" + query));
            this.underlying = underlying;
        }

        @Override
        public Invoker<Runnable> underlying() {
            return underlying;
        }
    }
}
