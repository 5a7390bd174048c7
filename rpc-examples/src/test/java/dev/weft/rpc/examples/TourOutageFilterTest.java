package dev.weft.rpc.examples;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The tour's injected outages, through a real consumer and real weft providers on 127.0.0.1. */
class TourOutageFilterTest {

    private final ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader());
    private final Weft consumers = Weft.builder().director(director).application("tour-outage-test").build();
    private TourProviders providers;

    @AfterEach
    void close() {
        consumers.close();
        if (providers != null) {
            providers.close();
        }
        director.close();
    }

    private GreetingService refer(List<ProviderSpec> specs, String cluster) {
        providers = TourProviders.start(specs, 7, director);
        return consumers.refer(GreetingService.class, Map.of("cluster", cluster, "loadbalance", "roundrobin",
                "url", providers.directUrls(), "lazy", "true", "check", "false", "retry-budget", "1"));
    }

    @Test
    void failfast_throwsTheInjectedNetworkFailure_withoutRetrying() {
        GreetingService consumer = refer(List.of(new ProviderSpec("x", 100, 0, 1.0, null),
                new ProviderSpec("y", 100, 0, 1.0, null)), "failfast");
        List<ProviderCounters> counters = providers.startCounting();

        RpcException failure = catchThrowableOfType(() -> consumer.greet("ann"), RpcException.class);

        assertThat(failure.isNetwork()).as("%s", failure).isTrue();
        assertThat(failure).hasMessageContaining(": injected outage (fail rate 1.0)");
        assertThat(counters.stream().mapToLong(ProviderCounters::attempts).sum()).isEqualTo(1);
        assertThat(counters.stream().mapToLong(ProviderCounters::failures).sum()).isEqualTo(1);
    }

    @Test
    void failover_retriesTheInjectedFailure_onTheProviderThatIsUp() {
        GreetingService consumer = refer(List.of(new ProviderSpec("x", 100, 0, 1.0, null),
                new ProviderSpec("y", 100, 0, 0.0, null)), "failover");
        List<ProviderCounters> counters = providers.startCounting();

        for (int i = 0; i < 10; i++) {
            assertThat(consumer.greet("ann")).contains("y");
        }

        // roundrobin picks x for every other call; each of those is retried once, on y
        assertThat(counters.get(0).attempts()).isEqualTo(5);
        assertThat(counters.get(0).failures()).isEqualTo(5);
        assertThat(counters.get(1).attempts()).isEqualTo(10);
        assertThat(counters.get(1).failures()).isZero();
    }
}
