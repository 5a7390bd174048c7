package dev.weft.rpc.spring.boot.internal;

import dev.weft.rpc.cluster.AbstractDirectory;
import dev.weft.rpc.cluster.Directory;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/** The {@link ReferenceLedger}: destroyed directories are dropped as soon as a change or a read sees them. Thread-safe. */
public final class DefaultReferenceLedger implements ReferenceLedger {

    private final CopyOnWriteArrayList<Directory<?>> directories = new CopyOnWriteArrayList<>();

    @Override
    public void add(Directory<?> directory) {
        directories.removeIf(DefaultReferenceLedger::destroyed);
        directories.addIfAbsent(Objects.requireNonNull(directory, "directory"));
    }

    @Override
    public List<Directory<?>> directories() {
        directories.removeIf(DefaultReferenceLedger::destroyed);
        return List.copyOf(directories);
    }

    private static boolean destroyed(Directory<?> directory) {
        return directory instanceof AbstractDirectory<?> known && known.isDestroyed();
    }
}
