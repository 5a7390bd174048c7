package dev.weft.rpc.benchmarks;

import dev.weft.rpc.bootstrap.Weft;
import io.netty.util.internal.PlatformDependent;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

/**
 * The provider JVM of {@link HostilePeersBenchmark}: exports {@link NetHostileService} on a free
 * port of 127.0.0.1 with the query in {@code args[0]}, prints {@code READY <port>}, then answers
 * each {@code mem} line on its input, after two full collections, with
 * {@code MEM <heap used> <direct used> <stamped calls> <stale calls>} (bytes; direct: Netty's count
 * when it keeps one, plus the JDK's direct buffer pool; then, since the start, the calls that reached
 * the implementation carrying their caller's give-up instant and those of them that reached it after
 * that instant, {@link StaleRunFilter}). Exits when its input ends.
 */
public final class NetHostileProvider {

    private NetHostileProvider() {
    }

    public static void main(String[] args) throws Exception {
        Weft weft = Weft.builder().build();
        int port = weft.export(NetHostileService.class, new NetHostileService() {
            @Override
            public String greet(String name) {
                return "hello " + name;
            }

            @Override
            public String blob(int length) {
                return "b".repeat(length);
            }
        }, "weft://127.0.0.1:0?" + StaleRunFilter.KEY + "=true" + (args.length > 0 && !args[0].isEmpty() ? "&" + args[0] : ""))
                .getInvoker().getUrl().getPort();
        System.out.println("READY " + port);
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.equals("mem")) {
                System.gc();
                Thread.sleep(200);
                System.gc();
                Runtime rt = Runtime.getRuntime();
                long direct = Math.max(0, PlatformDependent.usedDirectMemory());
                for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
                    if (pool.getName().equals("direct")) {
                        direct += pool.getMemoryUsed();
                    }
                }
                StaleRunFilter.Counts runs = StaleRunFilter.countsOf(weft.director());
                System.out.println("MEM " + (rt.totalMemory() - rt.freeMemory()) + " " + direct + " " + runs.stamped()
                        + " " + runs.stale());
                System.out.flush();
            }
        }
        weft.close();
    }
}
