package dev.weft.rpc.admin;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.common.RpcException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A real embedded ZooKeeper (127.0.0.1), three providers exported over the weft protocol on
 * loopback sockets ({@code a}: zone=eu env=prod, {@code b}: zone=eu-west env=test, {@code c}:
 * zone=us env=prod), a consumer of application {@code shop} calling them round robin, and a
 * plain Curator client reading the nodes as an operator's zkCli would.
 */
final class LiveCluster implements AutoCloseable {

    static final String SERVICE = Greeter.class.getName();

    final TestingServer zookeeper;
    final String registry;
    final Weft providers;
    final Weft consumers;
    final Greeter greeter;
    final CuratorFramework operator;
    /** Provider name to its address (host:port). */
    final Map<String, String> addresses = new LinkedHashMap<>();

    LiveCluster() throws Exception {
        zookeeper = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1,
                Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1"), true);
        registry = "zookeeper://127.0.0.1:" + zookeeper.getPort() + "?session=5000&timeout=2000";
        providers = Weft.builder().registry(registry).application("greeters").build();
        export("a", "zone=eu&env=prod");
        export("b", "zone=eu-west&env=test");
        export("c", "zone=us&env=prod");
        consumers = Weft.builder().registry(registry).application("shop").build();
        greeter = consumers.refer(Greeter.class, "loadbalance=roundrobin&timeout=3000&retries=0");
        operator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), 5000, 2000, new RetryNTimes(3, 100));
        operator.start();
        awaitCallers(() -> callers(false), Set.of("a", "b", "c"));
    }

    private void export(String name, String query) {
        Greeter impl = new Greeter() {
            @Override
            public String greet(String who) {
                return name;
            }

            @Override
            public String bye(String who) {
                return name;
            }
        };
        int port = providers.export(Greeter.class, impl, "weft://127.0.0.1:0?" + query).getInvoker().getUrl().getPort();
        addresses.put(name, "127.0.0.1:" + port);
    }

    /** Which providers answered 30 calls of {@code greet} (or {@code bye}); {@code failed} for a call that failed. */
    Set<String> callers(boolean bye) {
        Set<String> answers = new TreeSet<>();
        for (int i = 0; i < 30; i++) {
            try {
                answers.add(bye ? greeter.bye("x") : greeter.greet("x"));
            } catch (RpcException e) {
                answers.add("failed");
            }
        }
        return answers;
    }

    /**
     * Waits (at most 10 s) until {@code callers} gives {@code expected}, which it returns; else
     * the last answer (the assertion then fails with it).
     */
    static Set<String> awaitCallers(Supplier<Set<String>> callers, Set<String> expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Set<String> last = callers.get();
        while (!last.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            last = callers.get();
        }
        return last;
    }

    /** The node names under the service's {@code category} folder. */
    List<String> nodes(String category) throws Exception {
        String path = "/weft/" + SERVICE + "/" + category;
        return operator.checkExists().forPath(path) == null ? List.of() : operator.getChildren().forPath(path);
    }

    /** Deletes every rule node (between tests). */
    void deleteRules() throws Exception {
        for (String category : List.of("configurators", "routers")) {
            for (String node : nodes(category)) {
                operator.delete().forPath("/weft/" + SERVICE + "/" + category + "/" + node);
            }
        }
    }

    /** Runs weft-admin with {@code --registry} this cluster's and {@code args}. */
    Run admin(String... args) {
        List<String> all = new ArrayList<>(List.of("--registry", registry));
        all.addAll(List.of(args));
        return Run.of(all);
    }

    /** One run of weft-admin: its exit code and what it printed. */
    record Run(int exitCode, String out, String err) {
        static Run of(List<String> args) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = WeftAdmin.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }

    @Override
    public void close() throws Exception {
        operator.close();
        consumers.close();
        providers.close();
        zookeeper.close();
    }
}
