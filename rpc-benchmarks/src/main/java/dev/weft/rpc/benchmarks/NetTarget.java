package dev.weft.rpc.benchmarks;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.proxy.ProxyFactory;
import dev.weft.rpc.spi.ExtensionLoader;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;

/**
 * The three things the network benchmark compares, each as a server side and a client side on
 * 127.0.0.1: Weft's {@code weft} protocol, Apache Dubbo 3.3.6's {@code dubbo} protocol (same
 * {@link Greeter} interface, one shared connection), and a raw Netty echo of the same size.
 */
enum NetTarget {

    WEFT {
        @Override
        int serve() {
            Protocol protocol = ExtensionLoader.getExtensionLoader(Protocol.class).getExtension("weft");
            ProxyFactory proxies = ExtensionLoader.getExtensionLoader(ProxyFactory.class).getExtension("javassist");
            URL url = URL.valueOf("weft://127.0.0.1:0/" + Greeter.class.getName());
            return protocol.export(proxies.getInvoker(new GreeterImpl(), Greeter.class, url)).getInvoker().getUrl().getPort();
        }

        @Override
        Greeter connect(int port) {
            Protocol protocol = ExtensionLoader.getExtensionLoader(Protocol.class).getExtension("weft");
            ProxyFactory proxies = ExtensionLoader.getExtensionLoader(ProxyFactory.class).getExtension("javassist");
            Invoker<Greeter> invoker = protocol.refer(Greeter.class,
                    URL.valueOf("weft://127.0.0.1:" + port + "/" + Greeter.class.getName() + "?timeout=10000"));
            return proxies.getProxy(invoker);
        }
    },

    DUBBO {
        @Override
        int serve() {
            int port = NetEcho.freePort();
            ServiceConfig<Greeter> service = new ServiceConfig<>();
            service.setInterface(Greeter.class);
            service.setRef(new GreeterImpl());
            ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
            protocol.setHost("127.0.0.1");
            DubboBootstrap.getInstance()
                    .application(application("weft-bench-provider"))
                    .registry(new RegistryConfig(RegistryConfig.NO_AVAILABLE))
                    .protocol(protocol)
                    .service(service)
                    .start();
            return port;
        }

        @Override
        Greeter connect(int port) {
            ReferenceConfig<Greeter> reference = new ReferenceConfig<>();
            reference.setInterface(Greeter.class);
            reference.setUrl("dubbo://127.0.0.1:" + port + "/" + Greeter.class.getName());
            reference.setTimeout(10_000);
            DubboBootstrap.getInstance()
                    .application(application("weft-bench-consumer"))
                    .reference(reference)
                    .start();
            return reference.get();
        }
    },

    ECHO {
        @Override
        int serve() {
            return NetEcho.serve();
        }

        @Override
        Greeter connect(int port) {
            return NetEcho.connect(port);
        }
    };

    /** Starts the server side in this JVM; returns its port. */
    abstract int serve();

    /** The client side: one shared connection to {@code port}. */
    abstract Greeter connect(int port);

    private static ApplicationConfig application(String name) {
        ApplicationConfig application = new ApplicationConfig(name);
        application.setQosEnable(false);
        return application;
    }
}
