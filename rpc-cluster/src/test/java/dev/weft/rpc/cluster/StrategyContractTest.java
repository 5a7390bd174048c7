package dev.weft.rpc.cluster;

import dev.weft.rpc.testing.Calls;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Set;

import static dev.weft.rpc.cluster.TestClusters.consumer;
import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The contract every cluster strategy keeps, run against all seven through the extension loader:
 * configuration errors surface when a state is built (join, setUrl), the same way for each;
 * business exceptions are never retried; a final error keeps the last cause's code; empty and
 * destroyed directories; {@code join(dir).getUrl()} follows {@code setUrl}; a provider answering
 * {@code NOT_PROCESSED} is retried once elsewhere.
 */
class StrategyContractTest {

    /** The strategies that swallow failures and answer an empty result (DESIGN §3). */
    private static final Set<String> ANSWER_EMPTY = Set.of("failsafe", "failback");

    private final ExtensionDirector director = new ExtensionDirector(StrategyContractTest.class.getClassLoader());
    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");

    @AfterEach
    void tearDown() {
        director.close();
    }

    private Cluster cluster(String name) {
        return director.getExtensionLoader(Cluster.class).getExtension(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"failover", "failfast", "failsafe", "failback", "forking", "broadcast", "available"})
    void badConsumerKeys_areRejectedAtJoin_namingTheKeyAsWritten(String strategy) {
        assertThatThrownBy(() -> cluster(strategy).join(directory("retries=abc", a, b)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("retries: abc (expected: an integer) in consumer URL");
        assertThatThrownBy(() -> cluster(strategy).join(directory("hello.retries=abc", a, b)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("hello.retries: abc (expected: an integer) in consumer URL");
        assertThatThrownBy(() -> cluster(strategy).join(directory("sticky=maybe", a, b)))
                .hasMessageStartingWith("sticky: maybe (expected: true or false)");
        assertThatThrownBy(() -> cluster(strategy).join(directory("bye.loadbalance=randon", a, b)))
                .hasMessageStartingWith("bye.loadbalance: randon (expected: a LoadBalance extension;");
        assertThatThrownBy(() -> cluster(strategy).join(directory("loadbalance=consistenthash&hello.hash.nodes=0", a, b)))
                .hasMessageStartingWith("hello.hash.nodes: 0 (expected: an integer from 1 to 10000)");
        assertThat(a.calls() + b.calls()).as("nothing was called").isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"failover", "failfast", "failsafe", "failback", "forking", "broadcast", "available"})
    void badSetUrl_throws_andTheLastGoodStateKeepsServing(String strategy) {
        DynamicDirectory<Greeting> directory = directory("", a);
        Invoker<Greeting> invoker = cluster(strategy).join(directory);
        URL good = directory.getUrl();

        assertThatThrownBy(() -> directory.setUrl(good.addParameter("retries", "-x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("retries: -x (expected: an integer)");
        assertThatThrownBy(() -> directory.setState(good.addParameter("hello.sticky", "yes"), List.of(a, b)))
                .hasMessageStartingWith("hello.sticky: yes (expected: true or false)");

        assertThat(directory.getUrl()).isSameAs(good);
        assertThat(directory.getAllInvokers()).containsExactly(a);
        assertThat(Calls.invoke(invoker, hello()).getValue()).isEqualTo("10.0.0.1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"failover", "failfast", "failsafe", "failback", "forking", "broadcast", "available"})
    void joinedInvoker_getUrl_followsSetUrl(String strategy) {
        DynamicDirectory<Greeting> directory = directory("", a);
        Invoker<Greeting> invoker = cluster(strategy).join(directory);
        URL next = consumer("proxy=jdk");
        directory.setUrl(next);
        assertThat(invoker.getUrl()).isSameAs(next);
        assertThat(invoker.getInterface()).isSameAs(Greeting.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"failover", "failfast", "failsafe", "failback", "forking", "broadcast", "available"})
    void businessException_isNeverRetried(String strategy) {
        a.answering(Reply.rpcFailure(RpcException.BIZ_EXCEPTION));
        Invoker<Greeting> invoker = cluster(strategy).join(directory("retries=3", a));
        if (ANSWER_EMPTY.contains(strategy) && strategy.equals("failsafe")) {
            assertThat(Calls.invoke(invoker, hello()).getValue()).isNull();
        } else {
            RpcException e = catchThrowableOfType(RpcException.class, () -> Calls.invoke(invoker, hello()));
            assertThat(e).isNotNull();
            assertThat(e.isBiz()).isTrue();
        }
        assertThat(a.calls()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"failover", "failfast", "forking", "broadcast", "available"})
    void givingUp_keepsTheLastCausesCode(String strategy) {
        a.answering(Reply.timeout());
        b.answering(Reply.timeout());
        Invoker<Greeting> invoker = cluster(strategy).join(directory("forks=2", a, b));
        RpcException e = catchThrowableOfType(RpcException.class, () -> Calls.invoke(invoker, hello()));
        assertThat(e).isNotNull();
        assertThat(e.isTimeout()).as(String.valueOf(e)).isTrue();
        assertThat(e.getCause()).isInstanceOf(RpcException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"failsafe", "failback"})
    void swallowingStrategies_answerEmpty_onFailure(String strategy) {
        a.answering(Reply.timeout());
        Result result = Calls.invoke(cluster(strategy).join(directory("retries=0", a)), hello());
        assertThat(result.getValue()).isNull();
        assertThat(result.hasException()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"failover", "failfast", "failsafe", "failback", "forking", "broadcast", "available"})
    void emptyDirectory_isNoProviderAvailable_orAnEmptyAnswerForTheSwallowingOnes(String strategy) {
        Invoker<Greeting> invoker = cluster(strategy).join(directory("retries=0"));
        if (ANSWER_EMPTY.contains(strategy)) {
            assertThat(Calls.invoke(invoker, hello()).getValue()).isNull();
        } else {
            RpcException e = catchThrowableOfType(RpcException.class, () -> Calls.invoke(invoker, hello()));
            assertThat(e).isNotNull();
            assertThat(e.getCode()).isEqualTo(RpcException.NO_INVOKER_AVAILABLE);
            assertThat(e).hasMessageContaining("hello").hasMessageContaining(Greeting.class.getName());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"failover", "failfast", "failsafe", "failback", "forking", "broadcast", "available"})
    void destroyedInvoker_refusesCalls_andDestroysItsDirectory(String strategy) {
        DynamicDirectory<Greeting> directory = directory("", a);
        Invoker<Greeting> invoker = cluster(strategy).join(directory);
        invoker.destroy();
        assertThat(directory.isDestroyed()).isTrue();
        assertThatThrownBy(() -> Calls.invoke(invoker, hello()))
                .isInstanceOf(RpcException.class)
                .hasMessageContaining("is destroyed");
        assertThat(a.calls()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"failover", "failfast", "failsafe", "failback", "forking", "available"})
    void notProcessed_isRetriedOnceOnAnotherProvider_evenByFailfast(String strategy) {
        Reply refused = (invocation, self) -> {
            throw new RpcException(RpcException.NOT_PROCESSED, "server busy, request not processed at " + self.name());
        };
        a.answering(refused);
        b.answering(refused);
        FakeProvider<Greeting> c = FakeProvider.of(Greeting.class, "10.0.0.3");
        Invoker<Greeting> invoker = cluster(strategy).join(directory("retries=0&forks=1", a, c));
        for (int i = 0; i < 20; i++) {
            assertThat(Calls.invoke(invoker, hello()).getValue()).isEqualTo("10.0.0.3");
        }
        assertThat(c.calls()).isEqualTo(20);
    }
}
