package dev.weft.rpc.mock;

import dev.weft.rpc.cluster.AbstractDirectory;
import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.cluster.DynamicDirectory;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.UserService;
import dev.weft.rpc.proxy.JavassistProxyFactory;
import dev.weft.rpc.testing.FakeProvider;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * URL changes seen on the next call rather than vetoed: a directory that publishes no states
 * (not an {@code AbstractDirectory}) is re-checked lazily, and a destroyed directory still lets
 * a forced mock answer.
 */
class MockUpdatesWithoutListenersTest {

    private final FakeProvider<UserService> provider = FakeProvider.of(UserService.class, "b");
    private final MockClusterWrapper wrapper = new MockClusterWrapper(new FirstInvokerCluster(), new JavassistProxyFactory());

    /** A directory of someone else's making: a URL that changes, no listeners. */
    private static final class PlainDirectory implements Directory<UserService> {
        volatile URL url;
        private final List<Invoker<UserService>> invokers;

        PlainDirectory(URL url, List<Invoker<UserService>> invokers) {
            this.url = url;
            this.invokers = invokers;
        }

        @Override
        public Class<UserService> getInterface() {
            return UserService.class;
        }

        /** Its providers for normal calls; no mock-protocol invokers for mock calls. */
        @Override
        public List<Invoker<UserService>> list(Invocation invocation) {
            return invocation.getAttachment(AbstractDirectory.NEED_MOCK_ATTACHMENT) == null ? invokers : List.of();
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

    private static String sayHello(Invoker<UserService> invoker) {
        return (String) invoker.invoke(MockInvokerTest.call("sayHello", "ann")).getValue();
    }

    @Test
    void invalidUpdate_isRejectedOncePerMockKeys_andTheLastGoodConfigurationServes() {
        URL consumer = MockClusterInvokerTest.CONSUMER;
        PlainDirectory directory = new PlainDirectory(consumer.addParameter("sayHello.mock", "force:return 'old'"),
                List.of(provider));
        MockClusterInvoker<UserService> invoker = (MockClusterInvoker<UserService>) wrapper.join(directory);
        assertThat(sayHello(invoker)).isEqualTo("old");

        URL invalid = consumer.addParameter("sayHello.mock", "force:return 'new'").addParameter("count.mock", "return x");
        directory.url = invalid;
        assertThat(sayHello(invoker)).isEqualTo("old");
        assertThat(invoker.getRejectedUpdates()).isEqualTo(1);

        directory.url = invalid.addParameter("unrelated", "1");
        assertThat(sayHello(invoker)).isEqualTo("old");
        assertThat(invoker.getRejectedUpdates()).as("the same mock keys are not checked again").isEqualTo(1);

        directory.url = consumer.addParameter("sayHello.mock", "force:return 'new'");
        assertThat(sayHello(invoker)).isEqualTo("new");
        MockInvoker<UserService> serving = invoker.getMockInvoker();
        assertThat(serving.getUrl()).isSameAs(directory.url);

        directory.url = directory.url.addParameter("unrelated", "2");
        assertThat(invoker.getMockInvoker()).as("unchanged mock keys keep the checked configuration").isSameAs(serving);
        assertThat(sayHello(invoker)).isEqualTo("new");

        directory.url = invalid;
        assertThat(invoker.getMockInvoker()).isSameAs(serving);
        assertThat(invoker.getRejectedUpdates()).as("rejected again after a valid one in between").isEqualTo(2);
        assertThat(provider.calls()).isZero();
    }

    @Test
    void urlRemovingTheMock_turnsItOff_onTheNextCall() {
        PlainDirectory directory = new PlainDirectory(
                MockClusterInvokerTest.CONSUMER.addParameter("mock", "force:return empty"), List.of(provider));
        MockClusterInvoker<UserService> invoker = (MockClusterInvoker<UserService>) wrapper.join(directory);
        assertThat(sayHello(invoker)).isEqualTo("");
        directory.url = MockClusterInvokerTest.CONSUMER.addParameter("automock", "force:return empty");
        assertThat(sayHello(invoker)).as("automock is not a mock key").isEqualTo("b");
        assertThat(invoker.getMockInvoker().isEmpty()).isTrue();
    }

    @Test
    void destroyedDirectory_forcedMockStillAnswersFromTheExpression() {
        DynamicDirectory<UserService> directory = new DynamicDirectory<>(UserService.class,
                MockClusterInvokerTest.CONSUMER.addParameter("sayHello.mock", "force:return 'degraded'"));
        directory.setInvokers(List.of(provider));
        Invoker<UserService> invoker = wrapper.join(directory);
        directory.destroy();
        assertThat(sayHello(invoker)).isEqualTo("degraded");
    }
}
