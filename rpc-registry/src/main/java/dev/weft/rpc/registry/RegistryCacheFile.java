package dev.weft.rpc.registry;

import dev.weft.rpc.protocol.ServiceKey;
import com.google.common.net.PercentEscaper;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import dev.weft.rpc.common.URL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A file with the last provider and rule lists each service received, so that a consumer can
 * start while its registry is unreachable (registry URL key {@value #FILE_KEY}). One per
 * registry: give the same instance to every {@link RegistryDirectory} of that registry
 * ({@link RegistryDirectory.Builder#cacheFile}).
 *
 * <p>Saves are kept in memory and written to disk on a thread of the file's own, coalesced (a
 * burst of changes is one write), atomically (a temporary file then a move, so a reader never
 * sees half a file; when the path is a symbolic link, the file it points to is replaced, and
 * {@link #getPath()} names that file). Format, UTF-8, one line per URL:
 * {@code <category> <service key> <URL>}, and {@code <category> <service key>} alone for an
 * empty list (in the service key, a space, {@code %}, {@code +}, a control or non-ASCII
 * character is %-escaped); {@code #} starts a comment. Lines that do not parse (or are not UTF-8) are logged
 * with the file and line number and skipped.
 *
 * <p><b>Shared files.</b> Several instances (in one process or several) may name the same file.
 * A write takes an exclusive lock on {@code <file>.lock} beside it (created once, never deleted),
 * then reads the file, keeps the lists of the services this instance has not saved itself, puts
 * its own on top and replaces the file, all under the lock; so no instance drops another's
 * services or their latest change. A writer waits for the lock at most 10 s (by polling: within
 * one process the JVM refuses a second lock on a file rather than blocking). A write that does
 * not get the lock in time, or fails (the file cannot be read any more, or not replaced), leaves
 * the file as it is and is logged, rate-limited with the count of failures; the instance keeps
 * its lists and writes them all with its next write (its next save, or {@link #close()}). The
 * lock is advisory: only these instances honour it.
 *
 * <p>Thread-safe. {@link #close()} writes what is pending and stops the thread; a save after it
 * is not kept (logged, rate-limited with a count).
 */
public final class RegistryCacheFile implements AutoCloseable {

    /** Registry URL key: the path of the cache file of last known providers (default: none). */
    public static final String FILE_KEY = "file";

    static final int LOCK_WAIT_SECONDS = 10;
    private static final long MAX_LOCK_POLL_MILLIS = 16;
    private static final int MAX_LINK_HOPS = 40;
    /**
     * Writes a service key as one word: a space, {@code %}, {@code +}, a control character or a
     * non-ASCII one (possible in a group or version) is %-escaped, every other character is itself.
     */
    private static final PercentEscaper SERVICE_KEY_ESCAPER = new PercentEscaper("-_.*/:$@,;=~!()[]'&?#{}|^`<>\"\\",
            false);

    private final Logger log;
    private final Path path;
    /** Locked by every write of every instance naming {@link #path}. */
    private final Path lockPath;
    private final Duration lockWait;
    /** Writes that did not reach the file (lock not taken in time, or an I/O error), for rate-limited logs. */
    private final AtomicLong failedWrites = new AtomicLong();
    private final ConcurrentMap<String, List<URL>> lists = new ConcurrentHashMap<>();
    /** The keys of {@link #lists} saved through this instance (the others were read from the file). */
    private final Set<String> saved = ConcurrentHashMap.newKeySet();
    private final ExecutorService writer;
    private final CoalescingRefresher flusher;
    private final Object writeLock = new Object();
    /** Guards {@link #closed}, so a save either reaches the last write of {@link #close()} or is refused. */
    private final Object lifecycle = new Object();
    private boolean closed;
    private final AtomicLong savesAfterClose = new AtomicLong();

    /**
     * The cache file at {@code path}, with the lists it holds now (none when it does not exist).
     *
     * @throws UncheckedIOException when the file exists but cannot be read
     */
    public RegistryCacheFile(Path path) {
        this(path, Duration.ofSeconds(LOCK_WAIT_SECONDS), LoggerFactory.getLogger(RegistryCacheFile.class));
    }

    /** The cache file at {@code path}, whose writes wait at most {@code lockWait} for the lock and log to {@code log}. */
    RegistryCacheFile(Path path, Duration lockWait, Logger log) {
        this.path = followLinks(Objects.requireNonNull(path, "path").toAbsolutePath());
        this.lockPath = this.path.resolveSibling(this.path.getFileName() + ".lock");
        this.lockWait = Objects.requireNonNull(lockWait, "lockWait");
        this.log = Objects.requireNonNull(log, "log");
        read();
        this.writer = Executors.newSingleThreadExecutor(new ThreadFactoryBuilder().setDaemon(true)
                .setNameFormat("weft-registry-cache-" + this.path.getFileName().toString().replace("%", "%%") + "-%d").build());
        this.flusher = new CoalescingRefresher(writer, this::write);
    }

    /**
     * The file {@code path} stands for: a symbolic link is followed (even to a file not created
     * yet), so that writes replace the file it points to rather than the link.
     */
    private static Path followLinks(Path path) {
        Path file = path;
        for (int hops = 0; hops < MAX_LINK_HOPS && Files.isSymbolicLink(file); hops++) {
            try {
                file = file.resolveSibling(Files.readSymbolicLink(file)).normalize();
            } catch (IOException e) {
                throw new UncheckedIOException("Registry cache file " + path + " cannot be read", e);
            }
        }
        return file;
    }

    /**
     * The cache file a registry URL names with {@value #FILE_KEY}, if any.
     *
     * @throws IllegalArgumentException when the value is not a path on this system
     * @throws UncheckedIOException     when the file exists but cannot be read
     */
    public static Optional<RegistryCacheFile> forRegistry(URL registryUrl) {
        String file = registryUrl.getParameter(FILE_KEY, "");
        if (file.isEmpty()) {
            return Optional.empty();
        }
        Path path;
        try {
            path = Path.of(file);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(FILE_KEY + ": " + file + " (expected: a file path; " + e.getMessage()
                    + ") in " + registryUrl, e);
        }
        return Optional.of(new RegistryCacheFile(path));
    }

    public Path getPath() {
        return path;
    }

    /**
     * Remembers the current list of {@code category} for {@code service} and schedules a write.
     * After {@link #close()} the list is not kept; that is logged, rate-limited with a count.
     */
    public void save(ServiceKey service, String category, List<URL> urls) {
        String key = key(service, category);
        List<URL> copy = List.copyOf(urls);
        synchronized (lifecycle) {
            if (!closed) {
                lists.put(key, copy);
                saved.add(key);
                flusher.request();
                return;
            }
        }
        long n = savesAfterClose.incrementAndGet();
        if (Long.bitCount(n) == 1) {
            log.warn("Registry cache file {} is closed: the {} list of {} is not saved ({} saves after close)",
                    path, category, service, n);
        }
    }

    /**
     * The last list of {@code category} saved for {@code service}, if any: the one this instance
     * saved, else the one the file holds now (another instance or process may have written it
     * since this one was opened).
     */
    public Optional<List<URL>> load(ServiceKey service, String category) {
        String key = key(service, category);
        if (!saved.contains(key)) {
            try {
                List<URL> inFile = parse(readLines(), false).get(key);
                synchronized (lifecycle) {
                    if (inFile != null && !saved.contains(key)) {
                        lists.put(key, inFile);
                    }
                }
            } catch (IOException e) {
                log.warn("Registry cache file {} cannot be read; {} {} from when it was opened: {}",
                        path, category, service, e.toString());
            }
        }
        return Optional.ofNullable(lists.get(key));
    }

    /** Writes what is pending, then stops the writing thread; idempotent. */
    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
        }
        writer.shutdown();
        try {
            if (!writer.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("Registry cache file {}: the last write did not finish within 10 s", path);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        write();
    }

    private static String key(ServiceKey service, String category) {
        return category + " " + service;
    }

    private void read() {
        try {
            parse(readLines(), true).forEach(lists::put);
        } catch (IOException e) {
            throw new UncheckedIOException("Registry cache file " + path + " cannot be read", e);
        }
    }

    /**
     * The file's lines, each decoded alone so that one that is not UTF-8 (a corrupt byte) is a
     * {@code null} entry rather than a file that cannot be read; none when the file does not exist.
     */
    private List<String> readLines() throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                try {
                    lines.add(StandardCharsets.UTF_8.newDecoder()
                            .decode(ByteBuffer.wrap(bytes, start, i - start)).toString());
                } catch (CharacterCodingException e) {
                    lines.add(null);
                }
                start = i + 1;
            }
        }
        return lines;
    }

    /** The lists in {@code lines}, by key; each line that does not parse is skipped (and logged when {@code report}). */
    private Map<String, List<URL>> parse(List<String> lines, boolean report) {
        Map<String, List<URL>> read = new TreeMap<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i) == null) {
                if (report) {
                    log.warn("Registry cache file {} line {}: not UTF-8 text (expected: <category> <service key> [<URL>]);"
                            + " skipped", path, i + 1);
                }
                continue;
            }
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split(" ", 3);
            if (parts.length < 2) {
                if (report) {
                    log.warn("Registry cache file {} line {}: {} (expected: <category> <service key> [<URL>]); skipped",
                            path, i + 1, line);
                }
                continue;
            }
            String service;
            try {
                service = URLDecoder.decode(parts[1], StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                if (report) {
                    log.warn("Registry cache file {} line {}: service key {} (expected: %-escapes of two hex digits);"
                            + " skipped", path, i + 1, parts[1]);
                }
                continue;
            }
            List<URL> urls = read.computeIfAbsent(parts[0] + " " + service, k -> new ArrayList<>());
            if (parts.length == 3) {
                try {
                    urls.add(URL.valueOf(parts[2]));
                } catch (IllegalArgumentException e) {
                    if (report) {
                        log.warn("Registry cache file {} line {}: {}; skipped", path, i + 1, e.getMessage());
                    }
                }
            }
        }
        read.replaceAll((k, v) -> List.copyOf(v));
        return read;
    }

    /**
     * What to write: the file's lists as they are now, with every list this instance saved on
     * top, and the lists it read at start that the file no longer holds.
     *
     * @throws IOException when the file exists but cannot be read: replacing it would drop the
     *                     other instances' lists
     */
    private Map<String, List<URL>> merged() throws IOException {
        Map<String, List<URL>> merged = parse(readLines(), false);
        for (Map.Entry<String, List<URL>> entry : lists.entrySet()) {
            if (saved.contains(entry.getKey()) || !merged.containsKey(entry.getKey())) {
                merged.put(entry.getKey(), entry.getValue());
            }
        }
        return merged;
    }

    private void write() {
        synchronized (writeLock) {
            try {
                Path parent = path.getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                try (FileChannel channel = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                     FileLock lock = lock(channel)) {
                    if (lock == null) {
                        failed("lock " + lockPath + " not taken within " + lockWait.toMillis() + " ms");
                        return;
                    }
                    replaceFile(parent);
                }
            } catch (IOException e) {
                failed(e.toString());
            }
        }
    }

    /**
     * The lock on {@code channel}, waiting at most {@link #lockWait}; {@code null} when another
     * writer held it all that time or this thread was interrupted. Polls: the JVM refuses a lock
     * that another channel of this process holds ({@link OverlappingFileLockException}) instead of
     * blocking, and a bounded wait on another process's lock needs polling too.
     */
    private FileLock lock(FileChannel channel) throws IOException {
        long deadline = System.nanoTime() + lockWait.toNanos();
        long pause = 1;
        while (true) {
            try {
                FileLock lock = channel.tryLock();
                if (lock != null) {
                    return lock;
                }
            } catch (OverlappingFileLockException e) {
                // another instance in this process is writing
            }
            if (System.nanoTime() - deadline >= 0) {
                return null;
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
            pause = Math.min(pause * 2, MAX_LOCK_POLL_MILLIS);
        }
    }

    /** Reads, merges and atomically replaces the file; the caller holds the lock. */
    private void replaceFile(Path parent) throws IOException {
        StringBuilder text = new StringBuilder("# Weft registry cache: last known lists per service; rewritten on change\n");
        merged().forEach((key, urls) -> {
            int space = key.indexOf(' ');
            String line = key.substring(0, space + 1) + SERVICE_KEY_ESCAPER.escape(key.substring(space + 1));
            if (urls.isEmpty()) {
                text.append(line).append('\n');
            }
            for (URL url : urls) {
                text.append(line).append(' ').append(url.toFullString()).append('\n');
            }
        });
        Path temp = Files.createTempFile(parent == null ? Path.of(".") : parent, path.getFileName() + ".", ".tmp");
        try {
            Files.writeString(temp, text, StandardCharsets.UTF_8);
            try {
                Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp); // left only when the write or the move failed
        }
    }

    /** Logs a write that did not reach the file: the 1st, 2nd, 4th, 8th… time, with the count. */
    private void failed(String reason) {
        long n = failedWrites.incrementAndGet();
        if (Long.bitCount(n) == 1) {
            log.warn("Registry cache file {} not written: {}; this instance keeps its lists and writes them all"
                    + " with its next save or close ({} failed writes so far)", path, reason, n);
        }
    }

    @Override
    public String toString() {
        return "RegistryCacheFile[" + path + "]";
    }
}
