package dev.weft.rpc.mock;

import dev.weft.rpc.cluster.DynamicDirectory;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.UserService;
import dev.weft.rpc.proxy.JavassistProxyFactory;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What a {@link MockClusterInvoker} passes on: attachments to mock invokers, availability, destroy. */
class MockClusterInvokerContractTest {

    private final FakeProvider<UserService> provider = FakeProvider.of(UserService.class, "b");
    private final FakeProvider<UserService> mockProvider = FakeProvider.at(UserService.class,
            URL.valueOf("mock://10.0.0.1/" + UserService.class.getName()));

    private MockClusterInvoker<UserService> join(DynamicDirectory<UserService> directory) {
        return (MockClusterInvoker<UserService>) new MockClusterWrapper(new FirstInvokerCluster(), new JavassistProxyFactory())
                .join(directory);
    }

    private static DynamicDirectory<UserService> directory(URL url, FakeProvider<UserService> providers) {
        DynamicDirectory<UserService> directory = new DynamicDirectory<>(UserService.class, url);
        directory.setInvokers(List.of(providers));
        return directory;
    }

    @Test
    void mockProtocolInvoker_receivesTheCallersAttachments() {
        DynamicDirectory<UserService> directory = directory(
                MockClusterInvokerTest.CONSUMER.addParameter("sayHello.mock", "force:return 'x'"), provider);
        directory.setInvokers(List.of(provider, mockProvider));
        mockProvider.answering(Reply.computed(inv -> "for " + inv.getAttachment("trace.id")));
        RpcInvocation call = (RpcInvocation) MockInvokerTest.call("sayHello", "ann");
        call.setAttachment("trace.id", "t-42");

        assertThat(join(directory).invoke(call).getValue()).isEqualTo("for t-42");
        assertThat(mockProvider.lastInvocation().getAttachment("invocation.need.mock")).isEqualTo("true");
        assertThat(mockProvider.lastInvocation().getArguments()).containsExactly("ann");
        assertThat(call.getAttachment("invocation.need.mock")).as("the caller's invocation is left alone").isNull();
        assertThat(provider.calls()).isZero();
    }

    @Test
    void availability_isTheClusters() {
        MockClusterInvoker<UserService> invoker = join(directory(MockClusterInvokerTest.CONSUMER, provider));
        assertThat(invoker.isAvailable()).isTrue();
        provider.available(false);
        assertThat(invoker.isAvailable()).isFalse();
    }

    @Test
    void destroy_destroysTheClusterInvoker() {
        DynamicDirectory<UserService> directory = directory(MockClusterInvokerTest.CONSUMER, provider);
        MockClusterInvoker<UserService> invoker = join(directory);
        invoker.destroy();
        assertThat(directory.isDestroyed()).isTrue();
        assertThat(invoker.getInterface()).isSameAs(UserService.class);
    }

    @Test
    void toString_showsTheConfigurationServing() {
        DynamicDirectory<UserService> directory = directory(
                MockClusterInvokerTest.CONSUMER.addParameter("count.mock", "force:return 3"), provider);
        MockClusterInvoker<UserService> invoker = join(directory);
        assertThat(invoker.toString()).startsWith("MockClusterInvoker[").endsWith(
                ", MockInvoker[" + UserService.class.getName() + ", count.mock=force:return 3]]");
    }
}
