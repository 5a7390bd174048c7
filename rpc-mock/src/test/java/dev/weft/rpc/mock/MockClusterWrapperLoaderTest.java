package dev.weft.rpc.mock;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.DynamicDirectory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.User;
import dev.weft.rpc.mock.fixtures.UserNotFoundException;
import dev.weft.rpc.mock.fixtures.UserService;
import dev.weft.rpc.proxy.ProxyFactory;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The jar on the class path is all it takes: the loader wraps every cluster it returns. */
class MockClusterWrapperLoaderTest {

    private final ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader());

    @AfterEach
    void close() {
        director.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"failover", "failfast", "failsafe", "failback", "forking", "broadcast", "available"})
    void everyClusterFromTheLoader_isWrapped(String name) {
        Cluster cluster = director.getExtensionLoader(Cluster.class).getExtension(name);
        assertThat(cluster).isInstanceOf(MockClusterWrapper.class);
        assertThat(((MockClusterWrapper) cluster).getCluster().getClass().getSimpleName())
                .isEqualToIgnoringCase(name + "Cluster");
        assertThat(director.getExtensionLoader(Cluster.class).getSupportedExtensions()).doesNotContain("mock");
    }

    private static FakeProvider<UserService> provider() {
        return FakeProvider.at(UserService.class, URL.valueOf(MockClusterInvokerTest.PROVIDER));
    }

    private DynamicDirectory<UserService> directory(URL url, Invoker<UserService> provider) {
        DynamicDirectory<UserService> directory = new DynamicDirectory<>(UserService.class, url);
        directory.setInvokers(List.of(provider));
        return directory;
    }

    @ParameterizedTest
    @ValueSource(strings = {"javassist", "jdk"})
    void adaptiveCluster_selectedByUrl_degradesThroughTheDirectorsProxyFactory(String proxy) {
        FakeProvider<UserService> provider = provider().failingWith(Reply.networkError());
        URL url = URL.valueOf("consumer://10.0.0.1/" + UserService.class.getName() + "?cluster=failfast&proxy=" + proxy
                + "&mock=fail:default&find.mock=force:throw " + UserNotFoundException.class.getName());
        Invoker<UserService> joined = director.getExtensionLoader(Cluster.class).getAdaptiveExtension()
                .join(directory(url, provider));
        assertThat(joined).isInstanceOf(MockClusterInvoker.class);

        UserService service = director.getExtensionLoader(ProxyFactory.class).getAdaptiveExtension().getProxy(joined);
        assertThat(service.sayHello("ann")).isEqualTo("mock hello ann");
        assertThat(service.users()).containsExactly(new User("mock", 0));
        assertThatThrownBy(() -> service.find(1)).isExactlyInstanceOf(UserNotFoundException.class);
        assertThat(provider.calls()).isEqualTo(2);
    }

    @Test
    void realFailoverCluster_retriesThenTheMockAnswers() {
        FakeProvider<UserService> provider = provider().failingWith(Reply.networkError());
        URL url = URL.valueOf("consumer://10.0.0.1/" + UserService.class.getName() + "?retries=2")
                .addParameter("count.mock", "return 7");
        Invoker<UserService> joined = director.getExtensionLoader(Cluster.class).getExtension("failover")
                .join(directory(url, provider));
        assertThat(joined.invoke(MockInvokerTest.call("count")).getValue()).isEqualTo(7);
        assertThat(provider.calls()).isEqualTo(3);
    }

    @Test
    void badMock_failsTheJoinFromTheLoader() {
        FakeProvider<UserService> provider = provider().answering("ok");
        URL url = URL.valueOf("consumer://10.0.0.1/" + UserService.class.getName()).addParameter("mock", "force:retrun");
        Cluster cluster = director.getExtensionLoader(Cluster.class).getAdaptiveExtension();
        assertThatThrownBy(() -> cluster.join(directory(url, provider)))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessage("mock: force:retrun (expected: return [value], throw [class], default, true, fail, force"
                        + " or a fully qualified mock class name; at column 7: found 'retrun'; did you mean 'return'?)");
    }

    @Test
    void businessExceptionFromTheRealCluster_isNotMocked() {
        RpcException biz = new RpcException(RpcException.BIZ_EXCEPTION, "invalid id");
        FakeProvider<UserService> provider = provider().failingWith(biz);
        URL url = URL.valueOf("consumer://10.0.0.1/" + UserService.class.getName()).addParameter("mock", "return empty");
        Invoker<UserService> joined = director.getExtensionLoader(Cluster.class).getExtension("failover")
                .join(directory(url, provider));
        assertThatThrownBy(() -> joined.invoke(MockInvokerTest.call("users"))).isSameAs(biz);
        assertThat(provider.calls()).isEqualTo(1);
    }

    @org.junit.jupiter.api.Test
    void failbackRetryCounts_areReadableThroughTheCluster_evenThoughTheJoinedInvokerIsTheMockWrapper() {
        FakeProvider<UserService> provider = provider().failingWith(Reply.networkError());
        URL url = URL.valueOf("consumer://10.0.0.1/" + UserService.class.getName() + "?failbacktasks=1&failback.period=600000");
        DynamicDirectory<UserService> directory = directory(url, provider);
        Invoker<UserService> joined = director.getExtensionLoader(Cluster.class).getExtension("failback").join(directory);
        assertThat(joined).isInstanceOf(MockClusterInvoker.class);
        dev.weft.rpc.cluster.FailbackCluster failback =
                (dev.weft.rpc.cluster.FailbackCluster) director.getExtensionLoader(Cluster.class).getExtension("failback", false);

        joined.invoke(MockClusterInvokerTest.call("sayHello", "a"));
        joined.invoke(MockClusterInvokerTest.call("sayHello", "b"));

        assertThat(failback.pendingRetries(directory)).isEqualTo(1);
        assertThat(failback.droppedRetries(directory)).isEqualTo(1);
        assertThat(failback.pendingRetries(directory(url, provider))).as("a directory it never joined").isZero();
    }
}
