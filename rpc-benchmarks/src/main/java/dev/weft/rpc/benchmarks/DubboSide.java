package dev.weft.rpc.benchmarks;

import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;

/** Apache Dubbo 3.3.6's {@code dubbo} protocol through its documented API (DubboBootstrap), no registry, QoS off. */
final class DubboSide implements NetSide {

    @Override
    public int serve() {
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
    public Greeter connect(int port) {
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

    private static ApplicationConfig application(String name) {
        ApplicationConfig application = new ApplicationConfig(name);
        application.setQosEnable(false);
        return application;
    }
}
