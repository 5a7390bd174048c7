package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.first;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static dev.weft.rpc.cluster.TestClusters.using;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Choosing again when the balancer's choice cannot be used: it was already tried, it went down
 * since the state was built, or it left the directory.
 */
class ReselectionTest {

    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");
    private final FakeProvider<Greeting> c = FakeProvider.of(Greeting.class, "10.0.0.3");

    /** Picks the last invoker of every list. */
    private static final class LastLoadBalance implements LoadBalance {
        @Override
        public <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) {
            return invokers.get(invokers.size() - 1);
        }
    }

    /** Picks the first invoker among three or more, and answers nothing among fewer. */
    private static final class NoAnswerAmongFewLoadBalance implements LoadBalance {
        @Override
        public <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) {
            return invokers.size() >= 3 ? invokers.get(0) : null;
        }
    }

    @Test
    void everyCandidateWentDownUnnoticed_failsWithNoProvider_withoutCallingAny() {
        Invoker<Greeting> invoker = first(new FailoverCluster()).join(directory("", a, b));
        a.available(false);
        b.available(false);

        RpcException e = catchThrowableOfType(RpcException.class, () -> invoker.invoke(hello()));

        assertThat(e).isNotNull();
        assertThat(e.getCode()).isEqualTo(RpcException.NO_INVOKER_AVAILABLE);
        assertThat(e).hasMessageStartingWith("No provider available for method hello of service dev.weft.rpc.cluster.Greeting");
        assertThat(a.calls() + b.calls()).isZero();
    }

    @Test
    void theChoiceWentDown_theBalancerChoosesAgainAmongTheAvailableOnes() {
        Invoker<Greeting> invoker = using(new FailfastCluster(), new LastLoadBalance()).join(directory("", a, b, c));
        c.available(false);

        assertThat(invoker.invoke(hello()).getValue()).as("the last of [a, b]").isEqualTo("10.0.0.2");
        assertThat(a.calls()).isZero();
        assertThat(c.calls()).isZero();
    }

    @Test
    void withoutTheAvailabilityCheck_anUnavailableChoiceIsCalled() {
        Invoker<Greeting> invoker = first(new FailfastCluster()).join(directory("cluster.availablecheck=false", a, b));
        a.available(false);

        assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.1");
    }

    @Test
    void withoutTheAvailabilityCheck_aRetryMayGoToAnUnavailableProvider() {
        b.answering(Reply.networkError());
        c.available(false);
        Invoker<Greeting> invoker = using(new FailoverCluster(), new LastLoadBalance())
                .join(directory("cluster.availablecheck=false&retries=1", a, c, b));

        assertThat(invoker.invoke(hello()).getValue()).as("b failed; the last untried of [a, c]").isEqualTo("10.0.0.3");
        assertThat(a.calls()).isZero();
    }

    @Test
    void retry_theBalancerChoosesAmongTheUntried() {
        c.answering(Reply.networkError());
        Invoker<Greeting> invoker = using(new FailoverCluster(), new LastLoadBalance()).join(directory("retries=1", a, b, c));

        assertThat(invoker.invoke(hello()).getValue()).as("c failed; the last of [a, b]").isEqualTo("10.0.0.2");
        assertThat(a.calls()).isZero();
    }

    @Test
    void retry_whenTheBalancerAnswersNothing_theFirstUntriedIsUsed() {
        a.answering(Reply.networkError());
        Invoker<Greeting> invoker = using(new FailoverCluster(), new NoAnswerAmongFewLoadBalance())
                .join(directory("retries=1", a, b, c));

        assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.2");
        assertThat(a.calls()).isEqualTo(1);
        assertThat(c.calls()).isZero();
    }

    @Test
    void everyProviderTried_aProviderThatLeftTheDirectory_isNotTriedAgain() {
        AtomicReference<DynamicDirectory<Greeting>> directory = new AtomicReference<>();
        a.answering((invocation, self) -> {
            directory.get().setInvokers(List.of(b));
            return Reply.networkError().reply(invocation, self);
        });
        b.answering(Reply.networkError());
        directory.set(directory("retries=3", a, b));
        Invoker<Greeting> invoker = first(new FailoverCluster()).join(directory.get());

        RpcException e = catchThrowableOfType(RpcException.class, () -> invoker.invoke(hello()));

        assertThat(e).isNotNull();
        assertThat(a.calls()).as("left after its failure").isEqualTo(1);
        assertThat(b.calls()).isEqualTo(3);
    }

    @Test
    void sticky_aStickyProviderThatLeftTheDirectory_isReplaced() {
        DynamicDirectory<Greeting> directory = directory("sticky=true", a, b);
        Invoker<Greeting> invoker = first(new FailfastCluster()).join(directory);
        assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.1");

        directory.setInvokers(List.of(b));
        assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.2");
        assertThat(a.calls()).isEqualTo(1);
    }

    @Test
    void sticky_withoutTheAvailabilityCheck_anUnavailableStickyProviderIsKept() {
        DynamicDirectory<Greeting> directory = directory("sticky=true&cluster.availablecheck=false", a, b);
        Invoker<Greeting> invoker = using(new FailfastCluster(), new LastLoadBalance()).join(directory);
        assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.2");

        b.available(false);
        assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.2");
        assertThat(a.calls()).isZero();
    }
}
