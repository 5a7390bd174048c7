package dev.weft.rpc.mock;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.DynamicDirectory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.UserService;
import dev.weft.rpc.proxy.ProxyFactory;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;

import java.util.List;
import java.util.function.Function;

/**
 * Run by {@link MockColdStartTest} inside a fresh class loader: builds the whole consumer path
 * from the extension loader (adaptive cluster, mock wrapper, adaptive proxy) for a consumer URL
 * with the given query, and calls {@code sayHello} once on a healthy provider.
 */
public final class ColdPathScenario implements Function<String, Object> {

    @Override
    public Object apply(String query) {
        try (ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader())) {
            URL url = URL.valueOf("consumer://10.0.0.1/" + UserService.class.getName() + "?" + query);
            FakeProvider<UserService> provider = FakeProvider.at(UserService.class,
                    URL.valueOf(MockClusterInvokerTest.PROVIDER)).answering("provider");
            DynamicDirectory<UserService> directory = new DynamicDirectory<>(UserService.class, url);
            directory.setInvokers(List.of(provider));
            Invoker<UserService> joined = director.getExtensionLoader(Cluster.class).getAdaptiveExtension().join(directory);
            UserService service = director.getExtensionLoader(ProxyFactory.class).getAdaptiveExtension().getProxy(joined);
            return service.sayHello("ann");
        }
    }
}
