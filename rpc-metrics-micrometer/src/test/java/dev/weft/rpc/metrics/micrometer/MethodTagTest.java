package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.ExtensionDirector;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Tag values stay bounded: a method the interface does not declare is {@code other}. */
class MethodTagTest {

    @Test
    void undeclaredMethods_shareTheTagOther_soCallersCannotAddTagValues() {
        try (ExtensionDirector director = new ExtensionDirector(MethodTagTest.class.getClassLoader())) {
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            new WeftMetrics(director).bindTo(meters);
            Filter filter = director.getExtensionLoader(Filter.class).getExtension(ServerMetricsFilter.NAME);
            Invoker<Shop> chain = FilterChain.wrap(new Answering(), List.of(filter));

            chain.invoke(new RpcInvocation("greet", new Class<?>[]{String.class}, new Object[]{"a"}));
            for (int i = 0; i < 50; i++) {
                chain.invoke(new RpcInvocation("invented" + i, new Class<?>[0], new Object[0]));
            }

            assertThat(meters.find(Meters.SERVER_CALL_DURATION).timers().stream()
                    .collect(Collectors.toMap(t -> t.getId().getTag(Meters.METHOD), t -> t.count())))
                    .containsOnly(org.assertj.core.api.Assertions.entry("greet", 1L), org.assertj.core.api.Assertions.entry("other", 50L));
            assertThat(meters.getMeters()).extracting(Meter::getId).allMatch(id -> "weft".equals(id.getTag(Meters.SYSTEM)));
        }
    }

    /** An exported {@link Shop} that answers every call with {@code ok}. */
    private static final class Answering implements Invoker<Shop> {
        @Override
        public Class<Shop> getInterface() {
            return Shop.class;
        }

        @Override
        public Result invoke(Invocation invocation) {
            return RpcResult.of("ok");
        }

        @Override
        public URL getUrl() {
            return URL.valueOf("weft://127.0.0.1:20880/" + Shop.class.getName());
        }

        @Override
        public boolean isAvailable() {
            return true;
        }

        @Override
        public void destroy() {
        }
    }
}
