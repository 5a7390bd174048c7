package dev.weft.rpc.benchmarks;

import java.io.IOException;

/**
 * The server JVM of the network benchmark: {@code NetServer weft|dubbo|echo} starts that server on
 * 127.0.0.1, prints {@code READY <port>}, and exits when its standard input closes.
 */
public final class NetServer {

    private NetServer() {
    }

    public static void main(String[] args) throws IOException {
        int port = NetTarget.of(args[0]).side().serve();
        System.out.println("READY " + port);
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait for the parent to close our stdin
        }
        System.exit(0);
    }
}
