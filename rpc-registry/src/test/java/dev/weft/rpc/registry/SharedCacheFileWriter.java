package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.ServiceKey;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The second process of {@link RegistryCacheFileSharingTest}: saves a new list of its own service
 * to a shared cache file, again and again, until a stop file appears (at most 60 s), then closes
 * the cache and prints the port of the last list it saved.
 *
 * <p>Arguments: the cache file, the service group, the stop file.
 */
final class SharedCacheFileWriter {

    private SharedCacheFileWriter() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        ServiceKey service = RegistryCacheFileSharingTest.service(args[1]);
        Path stop = Path.of(args[2]);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int port = 0;
        try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
            while (port < 10 || !Files.exists(stop) && System.nanoTime() < deadline) {
                port++;
                cache.save(service, Categories.PROVIDERS, List.of(RegistryCacheFileSharingTest.provider(port)));
                Thread.sleep(0, 200_000);
            }
        }
        System.out.println(port);
    }
}
