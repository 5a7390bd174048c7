package dev.weft.rpc.it.e2e;

import dev.weft.rpc.cluster.DynamicDirectory;
import dev.weft.rpc.cluster.StaticDirectory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.testing.FakeProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Provider failures through the whole stack, and mock switched on and off at run time. */
class FailureAndMockTest {

    @ParameterizedTest(name = "proxy={0}")
    @ValueSource(strings = {"javassist", "jdk"})
    void failover_providerDown_everyCallAnsweredByAnother(String proxy) {
        try (WeftStack stack = new WeftStack()) {
            List<FakeProvider<Greeter>> providers = stack.providers("", "", "");
            stack.setDown(providers.get(0), true);
            Greeter greeter = stack.consumer(new StaticDirectory<>(
                    WeftStack.consumerUrl("cluster=failover&loadbalance=roundrobin&proxy=" + proxy), list(providers)));

            for (int i = 0; i < 30; i++) {
                assertThat(greeter.greet("x")).matches("[bc]: hello x");
            }
            assertThat(stack.served).hasSize(30).doesNotContain("a");
        }
    }

    @Test
    void failfast_providerDown_throwsNetworkRpcExceptionNamingProvider() {
        try (WeftStack stack = new WeftStack()) {
            List<FakeProvider<Greeter>> providers = stack.providers("");
            stack.setDown(providers.get(0), true);
            Greeter greeter = stack.consumer(new StaticDirectory<>(WeftStack.consumerUrl("cluster=failfast"), list(providers)));

            RpcException e = catchThrowableOfType(RpcException.class, () -> greeter.greet("x"));

            assertThat(e.isNetwork()).as("code of the cause kept: %s", e).isTrue();
            assertThat(e).hasMessageContaining("10.0.0.1:20880");
        }
    }

    @Test
    void failsafe_everyProviderDown_returnsNull() {
        try (WeftStack stack = new WeftStack()) {
            List<FakeProvider<Greeter>> providers = stack.providers("", "");
            providers.forEach(p -> stack.setDown(p, true));
            Greeter greeter = stack.consumer(new StaticDirectory<>(WeftStack.consumerUrl("cluster=failsafe"), list(providers)));

            assertThat(greeter.greet("x")).isNull();
        }
    }

    @Test
    void forking_everyProviderDown_throwsLastCause() {
        try (WeftStack stack = new WeftStack()) {
            List<FakeProvider<Greeter>> providers = stack.providers("", "", "");
            providers.forEach(p -> stack.setDown(p, true));
            Greeter greeter = stack.consumer(new StaticDirectory<>(
                    WeftStack.consumerUrl("cluster=forking&forks=3&timeout=5000"), list(providers)));

            RpcException e = catchThrowableOfType(RpcException.class, () -> greeter.greet("x"));

            assertThat(e.isNetwork()).as("code of the last cause: %s", e).isTrue();
        }
    }

    @Test
    void broadcast_oneProviderDown_throwsAfterCallingTheOthers() {
        try (WeftStack stack = new WeftStack()) {
            List<FakeProvider<Greeter>> providers = stack.providers("", "", "");
            stack.setDown(providers.get(1), true);
            Greeter greeter = stack.consumer(new StaticDirectory<>(WeftStack.consumerUrl("cluster=broadcast"), list(providers)));

            RpcException e = catchThrowableOfType(RpcException.class, () -> greeter.greet("x"));

            assertThat(e.isNetwork()).isTrue();
            assertThat(stack.served).containsExactly("a", "c");
        }
    }

    @Test
    void failback_providerDown_returnsNullNow_andRetriesInTheBackgroundUntilItAnswers() throws Exception {
        try (WeftStack stack = new WeftStack()) {
            List<FakeProvider<Greeter>> providers = stack.providers("");
            stack.setDown(providers.get(0), true);
            Greeter greeter = stack.consumer(new StaticDirectory<>(
                    WeftStack.consumerUrl("cluster=failback&failback.period=20&retries=50"), list(providers)));

            assertThat(greeter.greet("x")).isNull();
            assertThat(stack.served).isEmpty();

            stack.setDown(providers.get(0), false);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (stack.served.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(stack.served).containsExactly("a");
        }
    }

    @Test
    void emptyDirectory_failover_throwsNoInvokerAvailable_failsafe_returnsNull() {
        try (WeftStack stack = new WeftStack()) {
            Greeter failover = stack.consumer(new StaticDirectory<>(Greeter.class, WeftStack.consumerUrl(""), List.of()));
            Greeter failsafe = stack.consumer(new StaticDirectory<>(Greeter.class, WeftStack.consumerUrl("cluster=failsafe"),
                    List.of()));

            RpcException e = catchThrowableOfType(RpcException.class, () -> failover.greet("x"));
            assertThat(e.isNoInvokerAvailable()).as("%s", e).isTrue();
            assertThat(failsafe.greet("x")).isNull();
        }
    }

    @Test
    void unknownBalancerName_failsTheJoinWithSuggestion() {
        try (WeftStack stack = new WeftStack()) {
            StaticDirectory<Greeter> directory = new StaticDirectory<>(WeftStack.consumerUrl("loadbalance=randon"),
                    list(stack.providers("", "")));

            assertThatThrownBy(() -> stack.consumer(directory))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("loadbalance: randon (expected: a LoadBalance extension;")
                    .hasMessageContaining("No extension 'randon' for dev.weft.rpc.loadbalance.LoadBalance")
                    .hasMessageContaining("localfirst")
                    .hasMessageContaining("did you mean 'random'?");
        }
    }

    @ParameterizedTest(name = "proxy={0}")
    @ValueSource(strings = {"javassist", "jdk"})
    void mock_switchedOnAndOffAtRunTime_throughDirectorySetUrl(String proxy) {
        try (WeftStack stack = new WeftStack()) {
            List<FakeProvider<Greeter>> providers = stack.providers("", "");
            URL plain = WeftStack.consumerUrl("cluster=failover&loadbalance=roundrobin&proxy=" + proxy);
            DynamicDirectory<Greeter> directory = new DynamicDirectory<>(Greeter.class, plain);
            directory.setInvokers(list(providers));
            Greeter greeter = stack.consumer(directory);

            assertThat(greeter.greet("x")).matches("[ab]: hello x");

            directory.setUrl(plain.addParameter("greet.mock", "force:return 'mocked'"));
            assertThat(greeter.greet("x")).isEqualTo("mocked");
            assertThat(stack.served).as("force never reaches a provider").hasSize(1);

            directory.setUrl(plain.addParameter("mock", "force:return empty"));
            assertThat(greeter.greet("x")).as("empty fits every type").isEmpty();
            assertThat(greeter.add(1, 2)).isZero();
            assertThat(stack.served).hasSize(1);

            directory.setUrl(plain.addParameter("greet.mock", "fail:return 'degraded'"));
            assertThat(greeter.greet("x")).as("fail mock, providers up").matches("[ab]: hello x");
            providers.forEach(p -> stack.setDown(p, true));
            assertThat(greeter.greet("x")).as("fail mock, providers down").isEqualTo("degraded");

            directory.setUrl(plain);
            RpcException e = catchThrowableOfType(RpcException.class, () -> greeter.greet("x"));
            assertThat(e.isNetwork()).as("mock off again: the failure reaches the caller (%s)", e).isTrue();

            providers.forEach(p -> stack.setDown(p, false));
            assertThat(greeter.greet("x")).matches("[ab]: hello x");
        }
    }

    @Test
    void mock_interfaceLevelValueThatDoesNotFitAMethod_failsTheJoinNamingTheMethodAndKey() {
        try (WeftStack stack = new WeftStack()) {
            StaticDirectory<Greeter> directory = new StaticDirectory<>(
                    WeftStack.consumerUrl("mock=force:return+'mocked'"), list(stack.providers("")));

            assertThatThrownBy(() -> stack.consumer(directory))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("add(int, int)")
                    .hasMessageContaining("add.mock");
        }
    }

    @Test
    void mock_methodLevelKey_overridesOnlyThatMethod() {
        try (WeftStack stack = new WeftStack()) {
            Greeter greeter = stack.consumer(new StaticDirectory<>(
                    WeftStack.consumerUrl("greet.mock=force:return+'quiet'"), list(stack.providers(""))));

            assertThat(greeter.greet("x")).isEqualTo("quiet");
            assertThat(greeter.add(1, 2)).isEqualTo(3);
            assertThat(stack.served).containsExactly("a");
        }
    }

    static List<Invoker<Greeter>> list(List<FakeProvider<Greeter>> providers) {
        return new ArrayList<>(providers);
    }
}
