package dev.weft.rpc.mock;

import dev.weft.rpc.cluster.DynamicDirectory;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.UserService;
import dev.weft.rpc.testing.CapturingLogger;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeTicker;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.weft.rpc.mock.MockInvokerTest.call;
import static org.assertj.core.api.Assertions.assertThat;

/** The log lines of fail mode: an outage is reported, a flapping provider does not flood the log. */
class MockOutageLogTest {

    private final CapturingLogger log = new CapturingLogger();
    private final FakeTicker ticker = new FakeTicker();
    private final MockSupport support = new MockSupport(new ReflectiveInvokers(), ticker, log);
    private final FakeProvider<UserService> provider = FakeProvider.at(UserService.class,
            URL.valueOf(MockClusterInvokerTest.PROVIDER)).answering("provider");

    private MockClusterInvoker<UserService> join(String mock) {
        DynamicDirectory<UserService> directory = new DynamicDirectory<>(UserService.class,
                MockClusterInvokerTest.CONSUMER.addParameter("sayHello.mock", mock));
        directory.setInvokers(List.of(provider));
        MockInvoker<UserService> initial = MockInvoker.create(UserService.class, directory.getUrl(), support);
        return new MockClusterInvoker<>(directory, new FirstInvokerCluster().join(directory), initial, support);
    }

    private List<String> warnings() {
        return log.lines().stream().filter(line -> line.startsWith("WARN ")).toList();
    }

    @Test
    void failMode_providerFlappingBetweenFailureAndSuccess_logsOneWarningPerInterval_countingTheRest() {
        MockClusterInvoker<UserService> invoker = join("fail:return 'degraded'");
        RpcException refused = new RpcException(RpcException.NETWORK_EXCEPTION, "connection refused by 10.0.0.2:20880");
        for (int i = 0; i < 50; i++) {
            provider.thenFail(refused).thenAnswer("provider");
        }

        for (int i = 0; i < 100; i++) {
            assertThat(invoker.invoke(call("sayHello", "ann")).getValue()).isEqualTo(i % 2 == 0 ? "degraded" : "provider");
        }

        assertThat(warnings()).containsExactly("WARN Call " + UserService.class.getName() + ".sayHello(java.lang.String)"
                + " failed, answering with mock sayHello.mock=fail:return 'degraded' until calls succeed again:"
                + " RpcException connection refused by 10.0.0.2:20880");
        assertThat(invoker.getFailuresMasked()).isEqualTo(50);

        ticker.advance(MockClusterInvoker.OUTAGE_LOG_INTERVAL);
        provider.thenFail(refused);
        invoker.invoke(call("sayHello", "ann"));

        assertThat(warnings()).hasSize(2);
        assertThat(warnings().get(1)).endsWith("(49 more not logged since the last line)");
    }
}
