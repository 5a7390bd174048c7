package dev.weft.rpc.mock;

import dev.weft.rpc.cluster.DynamicDirectory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.UserService;
import dev.weft.rpc.mock.fixtures.UserServiceMock;
import dev.weft.rpc.proxy.JavassistProxyFactory;
import dev.weft.rpc.proxy.ProxyFactory;
import dev.weft.rpc.testing.FakeProvider;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The wrapper's own contract: which proxy factory calls mock classes, and how it shows in logs. */
class MockClusterWrapperTest {

    /** A proxy factory that notes for which types it made invokers, then lets Javassist do it. */
    private static final class NotingProxyFactory implements ProxyFactory {
        final List<Class<?>> invokersFor = new ArrayList<>();
        private final ProxyFactory real = new JavassistProxyFactory();

        @Override
        public <T> T getProxy(Invoker<T> invoker) throws RpcException {
            return real.getProxy(invoker);
        }

        @Override
        public <T> Invoker<T> getInvoker(T impl, Class<T> type, URL url) throws RpcException {
            invokersFor.add(impl.getClass());
            return real.getInvoker(impl, type, url);
        }
    }

    @Test
    void mockClasses_areCalledThroughTheGivenProxyFactory_oncePerConfiguration() {
        NotingProxyFactory proxies = new NotingProxyFactory();
        DynamicDirectory<UserService> directory = new DynamicDirectory<>(UserService.class,
                MockClusterInvokerTest.CONSUMER.addParameter("mock", "force:" + UserServiceMock.class.getName()));
        directory.setInvokers(List.of(FakeProvider.of(UserService.class, "b")));
        Invoker<UserService> invoker = new MockClusterWrapper(new FirstInvokerCluster(), proxies).join(directory);

        assertThat(invoker.invoke(MockInvokerTest.call("sayHello", "ann")).getValue()).isEqualTo("mock hello ann");
        assertThat(invoker.invoke(MockInvokerTest.call("count")).getValue()).isEqualTo(-1);
        assertThat(proxies.invokersFor).containsExactly(UserServiceMock.class);
    }

    @Test
    void toString_namesTheWrappedCluster() {
        FirstInvokerCluster cluster = new FirstInvokerCluster();
        MockClusterWrapper wrapper = new MockClusterWrapper(cluster);
        assertThat(wrapper).hasToString("MockClusterWrapper[" + cluster + "]");
        assertThat(wrapper.getCluster()).isSameAs(cluster);
    }
}
