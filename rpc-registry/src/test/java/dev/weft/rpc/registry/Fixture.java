package dev.weft.rpc.registry;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.spi.ExtensionDirector;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A director with the test protocol, a memory registry, and helpers to build directories and URLs. */
final class Fixture implements AutoCloseable {

    static final String SERVICE = DemoService.class.getName();
    static final String CONSUMER = "consumer://10.20.30.1/" + SERVICE + "?application=shop&side=consumer";

    final ExtensionDirector director = new ExtensionDirector(Fixture.class.getClassLoader());
    final TestProtocol protocol = (TestProtocol) director.getExtensionLoader(Protocol.class).getExtension("test", false);
    final MemoryRegistry registry = new MemoryRegistry(URL.valueOf("memory://test"));

    RegistryDirectory<DemoService> directory(String consumerUrl) {
        return RegistryDirectory.builder(DemoService.class, URL.valueOf(consumerUrl), registry)
                .director(director).build();
    }

    RegistryDirectory<DemoService> directory() {
        return directory(CONSUMER);
    }

    /** Registers {@code test://<address>/DemoService?<query>} and returns it. */
    URL provider(String address, String query) {
        URL url = URL.valueOf("test://" + address + "/" + SERVICE + (query.isEmpty() ? "" : "?" + query));
        registry.register(url);
        return url;
    }

    /** Registers {@code override://<address>/DemoService?category=configurators&dynamic=false&<query>}. */
    URL override(String address, String query) {
        URL url = URL.valueOf("override://" + address + "/" + SERVICE + "?category=configurators&dynamic=false&" + query);
        registry.register(url);
        return url;
    }

    /**
     * Registers the routing rule {@code condition://0.0.0.0/DemoService?category=routers&dynamic=false&rule=<rule>}
     * with {@code query} ({@code force=true&priority=2}...) and returns it.
     */
    URL route(String rule, String query) {
        URL url = URL.valueOf("condition://0.0.0.0/" + SERVICE + "?category=routers&dynamic=false"
                + (query.isEmpty() ? "" : "&" + query)).addParameter(ConditionRule.RULE_KEY, rule);
        registry.register(url);
        return url;
    }

    /** Each listed provider's address mapped to the value of {@code key} in its view URL. */
    static Map<String, String> providerValues(RegistryDirectory<DemoService> directory, String key) {
        Map<String, String> values = new TreeMap<>();
        for (Invoker<DemoService> invoker : directory.getInvokers()) {
            values.put(invoker.getUrl().getAddress(), String.valueOf(invoker.getUrl().getParameter(key)));
        }
        return values;
    }

    static List<String> addresses(RegistryDirectory<DemoService> directory) {
        return directory.getInvokers().stream().map(i -> i.getUrl().getAddress()).sorted().toList();
    }

    @Override
    public void close() {
        registry.close();
        director.close();
    }
}
