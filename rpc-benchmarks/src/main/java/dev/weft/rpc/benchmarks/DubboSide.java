package dev.weft.rpc.benchmarks;

import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;

/**
 * Apache Dubbo 3.3.6's {@code dubbo} protocol through its documented API (DubboBootstrap), no registry, QoS off.
 *
 * <p>Dubbo treats every {@code 127.*} host as "no host given": its server then binds all interfaces
 * and its client connects to the machine's LAN address instead. Both sides therefore name loopback
 * as the IPv4-mapped IPv6 literal {@link #LOOPBACK}, which Dubbo does not rewrite and the JDK
 * resolves to 127.0.0.1, so the server listens and the client connects on loopback only. The
 * server takes it from Dubbo's {@code DUBBO_IP_TO_BIND} property: as a {@code ProtocolConfig}
 * host it would work too, but Dubbo's config check logs it as an invalid host name.
 */
final class DubboSide implements NetSide {

    /** 127.0.0.1, spelled so that Dubbo keeps it. */
    static final String LOOPBACK = "::ffff:127.0.0.1";

    @Override
    public int serve() {
        int port = NetEcho.freePort();
        ServiceConfig<Greeter> service = new ServiceConfig<>();
        service.setInterface(Greeter.class);
        service.setRef(new GreeterImpl());
        // Read by Dubbo as the address to bind (and to advertise); this JVM serves only Dubbo.
        System.setProperty("DUBBO_IP_TO_BIND", LOOPBACK);
        ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
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
        reference.setUrl("dubbo://[" + LOOPBACK + "]:" + port + "/" + Greeter.class.getName());
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
