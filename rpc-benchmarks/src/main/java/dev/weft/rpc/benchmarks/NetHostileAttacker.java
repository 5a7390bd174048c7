package dev.weft.rpc.benchmarks;

import dev.weft.rpc.bootstrap.Weft;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The attackers of {@link HostilePeersBenchmark}, in a JVM of their own so that their threads and
 * allocations do not share the real consumer's JVM: runs one attack on the provider at
 * {@code 127.0.0.1:<port>} for {@code seconds}, then prints {@code RESULT <what the attack saw>}.
 *
 * <pre>java -cp benchmarks.jar dev.weft.rpc.benchmarks.NetHostileAttacker &lt;attack&gt; &lt;port&gt; &lt;seconds&gt;</pre>
 *
 * Attacks: {@value #NON_READING} (10 connections pipelining 3,000 requests for 64 KiB answers and
 * reading nothing), {@value #TRICKLING} (48 connections declaring 8 MiB bodies, sending 6 MiB, then a
 * byte every 10 s), {@value #MALFORMED} (100 connections a second, each sending one malformed
 * frame), {@value #BIG_ANSWERS} (a consumer calling for 100 MiB answers, one at a time).
 */
public final class NetHostileAttacker {

    static final String NON_READING = "non-reading";
    static final String TRICKLING = "trickling";
    static final String MALFORMED = "malformed";
    static final String BIG_ANSWERS = "big-answers";
    private static final String SERVICE = NetHostileService.class.getName();

    private NetHostileAttacker() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            throw new IllegalArgumentException("arguments: " + Arrays.toString(args)
                    + " (expected: <attack> <port> <seconds>, attack one of " + List.of(NON_READING, TRICKLING, MALFORMED, BIG_ANSWERS) + ")");
        }
        String attack = args[0];
        int port = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        System.out.println("ATTACKING");
        System.out.flush();
        String result = switch (attack) {
            case NON_READING -> nonReading(port, 10, seconds);
            case TRICKLING -> trickling(port, 48, seconds);
            case MALFORMED -> malformed(port, 100, seconds);
            case BIG_ANSWERS -> {
                try (Weft weft = Weft.builder().build()) {
                    yield bigAnswers(weft.refer(NetHostileService.class, "url=weft://127.0.0.1:" + port
                            + "&timeout=10000&retries=0&connections=2"), seconds);
                }
            }
            default -> throw new IllegalArgumentException("attack: " + attack + " (expected: one of "
                    + List.of(NON_READING, TRICKLING, MALFORMED, BIG_ANSWERS) + ")");
        };
        System.out.println("RESULT " + result);
        System.out.flush();
        System.exit(0);
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
        CountDownLatch over = new CountDownLatch(1);
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
                        while (!over.await(10, TimeUnit.SECONDS)) {
                            o.write('x');
                        }
                    } catch (IOException e) {
                        if (over.getCount() > 0) {
                            closedByProvider.incrementAndGet();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        } finally {
            over.countDown();
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
}
