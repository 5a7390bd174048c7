package dev.weft.rpc.registry;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** A retired provider keeps its invoker until its last call has ended, an async call's pending result included. */
class ReferredProviderTest {

    /** An invoker whose calls stay pending until the test completes them. */
    private static final class PendingInvoker implements Invoker<DemoService> {
        final AsyncResult result = AsyncResult.pending();
        final AtomicBoolean destroyed = new AtomicBoolean();

        @Override
        public Class<DemoService> getInterface() {
            return DemoService.class;
        }

        @Override
        public Result invoke(Invocation invocation) {
            return result;
        }

        @Override
        public URL getUrl() {
            return URL.valueOf("test://10.0.0.1:1/" + DemoService.class.getName());
        }

        @Override
        public boolean isAvailable() {
            return !destroyed.get();
        }

        @Override
        public void destroy() {
            destroyed.set(true);
        }
    }

    @Test
    void retired_withAnAsyncCallPending_isDestroyedWhenThatCallEnds_notWhenInvokeReturns() {
        PendingInvoker invoker = new PendingInvoker();
        ReferredProvider<DemoService> provider = new ReferredProvider<>(invoker);

        Result call = provider.invoke(new RpcInvocation("sayHello", new Class<?>[] {String.class}, new Object[] {"a"}));
        provider.retire();

        assertThat(call.isDone()).isFalse();
        assertThat(invoker.destroyed).as("destroyed while its call was pending").isFalse();
        invoker.result.complete(RpcResult.of("hello"));
        assertThat(call.isDone()).isTrue();
        assertThat(invoker.destroyed).isTrue();
    }

    @Test
    void retired_withNoCallInFlight_isDestroyedAtOnce() {
        PendingInvoker invoker = new PendingInvoker();
        new ReferredProvider<>(invoker).retire();

        assertThat(invoker.destroyed).isTrue();
    }
}
