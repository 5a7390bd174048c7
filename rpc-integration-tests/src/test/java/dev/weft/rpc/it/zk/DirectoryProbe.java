package dev.weft.rpc.it.zk;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.Registry;
import dev.weft.rpc.registry.RegistryDirectory;
import dev.weft.rpc.registry.RegistryFactory;
import dev.weft.rpc.spi.ExtensionDirector;

/**
 * A consumer's-eye view of a service in a registry, for tests to see when a change has reached
 * consumers: its own registry session and a {@link RegistryDirectory} of {@link GreetingService}
 * (built as {@code Weft.refer} builds one, with {@code lazy=true} so it opens no connection), and
 * the raw {@link Registry} to write to. Closing destroys the directory, then the registry and the
 * director.
 */
final class DirectoryProbe implements AutoCloseable {

    private final ExtensionDirector director;
    private final Registry registry;
    private final RegistryDirectory<GreetingService> directory;

    private DirectoryProbe(String registryUrl) {
        this.director = new ExtensionDirector(DirectoryProbe.class.getClassLoader());
        this.registry = director.getExtensionLoader(RegistryFactory.class).getAdaptiveExtension()
                .getRegistry(URL.valueOf(registryUrl));
        String service = GreetingService.class.getName();
        this.directory = RegistryDirectory.builder(GreetingService.class, URL.valueOf("consumer://127.0.0.1/" + service
                + "?interface=" + service + "&application=probe&side=consumer&lazy=true"), registry)
                .director(director).build();
    }

    static DirectoryProbe open(String registryUrl) {
        return new DirectoryProbe(registryUrl);
    }

    RegistryDirectory<GreetingService> directory() {
        return directory;
    }

    Registry registry() {
        return registry;
    }

    @Override
    public void close() throws Exception {
        try {
            directory.destroy();
            registry.close();
        } finally {
            director.close();
        }
    }
}
