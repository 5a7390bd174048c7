package dev.weft.rpc.benchmarks;

import dev.weft.rpc.bootstrap.Weft;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Writer;
import java.io.OutputStreamWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak of a provider under hostile peers, run by hand: a provider JVM with a 256 MB heap
 * ({@link NetHostileProvider}) serves a real consumer (this JVM) at 500 calls per second while, in
 * turn, 10 clients that never read their answers, 48 trickling uploads, 100 malformed frames per
 * second and calls for a 100 MiB answer hit it, one phase each, with a quiet phase first. Prints,
 * per phase, the consumer's calls, failures, p50/p99/max latency (from each call's intended start,
 * so a stall counts in full), and the provider's heap and direct memory after the phase (attackers
 * gone, two collections).
 *
 * <pre>java -cp rpc-benchmarks/target/benchmarks.jar dev.weft.rpc.benchmarks.HostilePeersBenchmark [seconds per phase]</pre>
 */
public final class HostilePeersBenchmark {

    private static final int RATE = 500;
    private static final String SERVICE = NetHostileService.class.getName();

    private HostilePeersBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        String jar = Path.of(HostilePeersBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        Process provider = new ProcessBuilder(java, "-Xmx256m", "-cp", jar, NetHostileProvider.class.getName(), "")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(provider.getInputStream(), StandardCharsets.UTF_8));
        Writer in = new OutputStreamWriter(provider.getOutputStream(), StandardCharsets.UTF_8);
        int port = -1;
        for (String line; port < 0 && (line = out.readLine()) != null; ) {
            if (line.startsWith("READY ")) {
                port = Integer.parseInt(line.substring(6).trim());
            }
        }
        if (port < 0) {
            throw new IllegalStateException("provider did not start");
        }
        System.out.println("load average before: " + loadAverage());
        List<String> rows = new ArrayList<>();
        try (Weft weft = Weft.builder().build()) {
            NetHostileService consumer = weft.refer(NetHostileService.class,
                    "url=weft://127.0.0.1:" + port + "&timeout=2000");
            for (int i = 0; i < 2_000; i++) {
                consumer.greet("warm-up");
            }
            long[] quietMemory = memory(in, out);
            rows.add(row("quiet", phase(consumer, seconds, () -> "none"), quietMemory));
            int p = port;
            rows.add(row("10 non-reading clients", phase(consumer, seconds, () -> nonReading(p, 10, seconds)), memory(in, out)));
            rows.add(row("48 trickling uploads", phase(consumer, seconds, () -> trickling(p, 48, seconds)), memory(in, out)));
            rows.add(row("100 malformed frames/s", phase(consumer, seconds, () -> malformed(p, 100, seconds)), memory(in, out)));
            NetHostileService big = weft.refer(NetHostileService.class, "url=weft://127.0.0.1:" + port
                    + "&timeout=10000&retries=0&connections=2");
            rows.add(row("100 MiB answers", phase(consumer, seconds, () -> bigAnswers(big, seconds)), memory(in, out)));
        } finally {
            in.close();
            if (!provider.waitFor(20, TimeUnit.SECONDS)) {
                provider.destroyForcibly();
            }
        }
        System.out.println("load average after: " + loadAverage());
        System.out.println("| phase (" + seconds + " s) | calls | failed | p50 ms | p99 ms | max ms | attack | heap after MB | direct after MB |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        rows.forEach(System.out::println);
    }

    /** The consumer's figures of one phase, and what the attack reported. */
    private record Phase(long calls, long failed, long p50, long p99, long max, String attack) {
    }

    private interface Attack {
        String run() throws Exception;
    }

    private static String row(String name, Phase phase, long[] memory) {
        return String.format(Locale.ROOT, "| %s | %d | %d | %.2f | %.2f | %.1f | %s | %.0f | %.1f |", name, phase.calls,
                phase.failed, phase.p50 / 1e6, phase.p99 / 1e6, phase.max / 1e6, phase.attack,
                memory[0] / 1048576.0, memory[1] / 1048576.0);
    }

    private static long[] memory(Writer in, BufferedReader out) throws IOException, InterruptedException {
        Thread.sleep(3_000);
        in.write("mem\n");
        in.flush();
        for (String line; (line = out.readLine()) != null; ) {
            if (line.startsWith("MEM ")) {
                String[] parts = line.split(" ");
                return new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[2])};
            }
        }
        throw new IllegalStateException("provider ended");
    }

    /** 500 calls per second for {@code seconds} while {@code attack} runs on its own thread. */
    private static Phase phase(NetHostileService consumer, int seconds, Attack attack) throws Exception {
        int total = RATE * seconds;
        long[] latencies = new long[total];
        AtomicLong failed = new AtomicLong();
        ExecutorService callers = Executors.newFixedThreadPool(64);
        ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor();
        ExecutorService attacker = Executors.newSingleThreadExecutor();
        var attackResult = attacker.submit(attack::run);
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        AtomicLong next = new AtomicLong();
        ticks.scheduleAtFixedRate(() -> {
            long now = System.nanoTime();
            while (true) {
                long i = next.get();
                long intended = start + i * (1_000_000_000L / RATE);
                if (i >= total || intended > now || !next.compareAndSet(i, i + 1)) {
                    return;
                }
                callers.execute(() -> {
                    try {
                        consumer.greet("c" + i);
                    } catch (RuntimeException e) {
                        failed.incrementAndGet();
                    }
                    latencies[(int) i] = System.nanoTime() - intended;
                });
            }
        }, 0, 1, TimeUnit.MILLISECONDS);
        while (next.get() < total) {
            Thread.sleep(50);
        }
        ticks.shutdown();
        callers.shutdown();
        callers.awaitTermination(30, TimeUnit.SECONDS);
        String attackSummary;
        try {
            attackSummary = attackResult.get(seconds + 60L, TimeUnit.SECONDS);
        } catch (Exception e) {
            attackSummary = "attack failed: " + e;
        }
        attacker.shutdownNow();
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        return new Phase(total, failed.get(), sorted[total / 2], sorted[(int) (total * 0.99)], sorted[total - 1], attackSummary);
    }

    /** A two-way request frame for {@code method} with the JSON arguments {@code json}. */
    private static byte[] request(long id, String method, String descriptor, byte[] json, int declaredBodyLength) {
        try {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            DataOutputStream b = new DataOutputStream(body);
            for (String s : new String[] {SERVICE, method, descriptor}) {
                byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
                b.writeShort(bytes.length);
                b.write(bytes);
            }
            b.writeShort(0);
            b.write(json);
            ByteArrayOutputStream frame = new ByteArrayOutputStream();
            DataOutputStream f = new DataOutputStream(frame);
            f.writeShort(0x5746);
            f.writeByte(1);
            f.writeByte(0xc0);
            f.writeByte(0);
            f.writeByte(1);
            f.writeShort(0);
            f.writeLong(id);
            f.writeInt(0);
            f.writeInt(declaredBodyLength < 0 ? body.size() : declaredBodyLength);
            f.write(body.toByteArray());
            return frame.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(16 * 1024);
        socket.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
        return socket;
    }

    /** {@code clients} connections, each pipelining 3,000 requests for 64 KiB answers and reading nothing. */
    private static String nonReading(int port, int clients, int seconds) throws Exception {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int id = 1; id <= 3_000; id++) {
            all.write(request(id, "blob", "int", "65536".getBytes(StandardCharsets.US_ASCII), -1));
        }
        byte[] bytes = all.toByteArray();
        List<Socket> sockets = new ArrayList<>();
        ExecutorService writers = Executors.newFixedThreadPool(clients);
        AtomicLong written = new AtomicLong();
        try {
            for (int c = 0; c < clients; c++) {
                Socket socket = connect(port);
                sockets.add(socket);
                writers.execute(() -> {
                    try {
                        OutputStream o = socket.getOutputStream();
                        for (int off = 0; off < bytes.length; off += 4096) {
                            o.write(bytes, off, Math.min(4096, bytes.length - off));
                            written.addAndGet(Math.min(4096, bytes.length - off));
                        }
                    } catch (IOException closed) {
                        // the phase ended, or the provider closed a silent peer
                    }
                });
            }
            Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
            writers.shutdownNow();
        }
        return String.format(Locale.ROOT, "%d of %d request bytes accepted", written.get(), (long) bytes.length * clients);
    }

    /** {@code uploads} connections, each declaring an 8 MiB body, sending 6 MiB, then a byte every 10 s. */
    private static String trickling(int port, int uploads, int seconds) throws Exception {
        byte[] head = request(1, "greet", "java.lang.String", "\"".getBytes(StandardCharsets.US_ASCII), 8 * 1024 * 1024);
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte) 'x');
        List<Socket> sockets = new ArrayList<>();
        ExecutorService senders = Executors.newFixedThreadPool(uploads);
        AtomicLong closedByProvider = new AtomicLong();
        AtomicBoolean over = new AtomicBoolean();
        try {
            for (int u = 0; u < uploads; u++) {
                Socket socket = connect(port);
                sockets.add(socket);
                senders.execute(() -> {
                    try {
                        OutputStream o = socket.getOutputStream();
                        o.write(head);
                        for (int sent = 0; sent < 6 * 1024 * 1024; sent += chunk.length) {
                            o.write(chunk);
                        }
                        while (!over.get()) {
                            Thread.sleep(10_000);
                            o.write('x');
                        }
                    } catch (IOException e) {
                        if (!over.get()) {
                            closedByProvider.incrementAndGet();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        } finally {
            over.set(true);
            for (Socket s : sockets) {
                s.close();
            }
            senders.shutdownNow();
        }
        return closedByProvider.get() + " of " + uploads + " uploads closed by the provider";
    }

    /** {@code perSecond} connections a second, each sending one malformed frame. */
    private static String malformed(int port, int perSecond, int seconds) throws Exception {
        Random random = new Random(7);
        long sent = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end) {
            long tick = System.nanoTime();
            for (int i = 0; i < perSecond / 10; i++) {
                byte[] junk = new byte[64];
                random.nextBytes(junk);
                if (i % 2 == 0) { // a valid magic and version with a non-zero reserved field
                    junk[0] = 0x57;
                    junk[1] = 0x46;
                    junk[2] = 1;
                    junk[3] = (byte) 0xc0;
                    junk[6] = 1;
                }
                try (Socket socket = connect(port)) {
                    socket.getOutputStream().write(junk);
                    sent++;
                }
            }
            long wait = TimeUnit.MILLISECONDS.toNanos(100) - (System.nanoTime() - tick);
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
        }
        return sent + " malformed frames sent";
    }

    /** Calls for a 100 MiB answer, one at a time, for the phase. */
    private static String bigAnswers(NetHostileService big, int seconds) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        int calls = 0;
        int refused = 0;
        String sample = "";
        while (System.nanoTime() < end) {
            calls++;
            try {
                big.blob(100 * 1024 * 1024);
            } catch (RuntimeException e) {
                refused++;
                sample = String.valueOf(e.getMessage());
            }
        }
        return refused + " of " + calls + " refused (" + sample.substring(0, Math.min(90, sample.length())) + ")";
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
