package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code call} filter chain wraps the whole call as the caller sees it: one end per call, after
 * every attempt, with the mock's answer marked, sync and async alike.
 */
class WeftCallChainTest {

    public interface Stock {
        int level(String sku);

        CompletableFuture<Integer> levelAsync(String sku);
    }

    /** Records, per call, what its end showed: outcome and the attempts the call chain never sees. */
    @Activate(group = FilterChain.CALL, value = "record-calls")
    public static final class RecordingCallFilter implements Filter {
        static final List<String> ENDS = new CopyOnWriteArrayList<>();

        @Override
        public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
            int attempt = invocation.getCallOptions().attempt();
            return next.invoke(invocation).whenComplete((result, failure) -> ENDS.add(invocation.getMethodName() + " attempt="
                    + attempt + " outcome=" + (failure != null ? "error" : result.isMocked() ? "mocked" : "ok")));
        }
    }

    @AfterEach
    void clear() {
        RecordingCallFilter.ENDS.clear();
    }

    @Test
    void callFilter_seesEachCallEndOnce_afterItsRetries_andTheMockMarked() throws Exception {
        try (Weft weft = Weft.builder().build()) {
            int port = weft.export(Stock.class, new Stock() {
                @Override
                public int level(String sku) {
                    return 3;
                }

                @Override
                public CompletableFuture<Integer> levelAsync(String sku) {
                    return CompletableFuture.completedFuture(4);
                }
            }, "weft://127.0.0.1:0").getInvoker().getUrl().getPort();
            // the first address refuses connections: the call fails over once, and the call chain sees one end
            String urls = "weft://127.0.0.1:1,weft://127.0.0.1:" + port;
            Stock stock = weft.refer(Stock.class, "url=" + urls + "&record-calls=true&retries=2&timeout=3000&loadbalance=roundrobin");
            assertThat(stock.level("a")).isEqualTo(3);
            assertThat(stock.levelAsync("a").get(10, TimeUnit.SECONDS)).isEqualTo(4);
            assertThat(RecordingCallFilter.ENDS).containsExactly("level attempt=0 outcome=ok", "levelAsync attempt=0 outcome=ok");

            Stock mocked = weft.refer(Stock.class, "url=weft://127.0.0.1:1&record-calls=true&retries=0&timeout=500"
                    + "&check=false&mock=fail:return 9");
            assertThat(mocked.level("b")).isEqualTo(9);
            assertThat(mocked.levelAsync("b").get(10, TimeUnit.SECONDS)).isEqualTo(9);
            assertThat(RecordingCallFilter.ENDS).endsWith("level attempt=0 outcome=mocked", "levelAsync attempt=0 outcome=mocked");

            Stock failing = weft.refer(Stock.class, "url=weft://127.0.0.1:1&record-calls=true&retries=0&timeout=500&check=false");
            assertThatThrownBy(() -> failing.level("c")).isInstanceOf(RpcException.class);
            assertThat(RecordingCallFilter.ENDS).endsWith("level attempt=0 outcome=error");
        }
    }
}
