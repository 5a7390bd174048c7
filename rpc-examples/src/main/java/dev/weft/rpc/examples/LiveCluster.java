package dev.weft.rpc.examples;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.filter.CallContext;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The live cluster: ZooKeeper (an embedded {@link TestingServer} listening on 127.0.0.1 only, or an external
 * ensemble), the providers (each with its own {@link Weft}, in this JVM or in child JVMs), one
 * consumer {@link Weft} referring {@link GreetingService} through the registry, the operator's
 * {@link AdminCommands} writing override rules, and an {@link Operator} that removes at the end what
 * the run added to ZooKeeper. {@link #close()} deletes the rules it wrote, then closes the consumer,
 * the providers, the operator and the embedded server. Not thread-safe:
 * one thread starts it, applies events and closes it; the consumer proxy is thread-safe.
 */
final class LiveCluster implements AutoCloseable {

    /** Provider registry sessions: short, so a killed provider's node goes soon (the server may raise it). */
    static final int PROVIDER_SESSION_MILLIS = 3000;
    /** The embedded server's tick: sessions from 2 ticks up to {@link #MAX_SESSION_MILLIS}. */
    static final int TICK_MILLIS = 200;
    static final int MAX_SESSION_MILLIS = 60_000;
    static final int SHUTDOWN_TIMEOUT_MILLIS = 2000;
    /** Consumer key of {@code Weft.refer}: wait for a first provider before returning. */
    static final String CHECK_KEY = "check";
    private static final long WARM_UP_PAUSE_MILLIS = 10;
    /** The override (a {@code key=value} of the admin's {@code override}) forcing a mock on {@code greet}. */
    static final String MOCK_RULE = "greet.mock=force:return degraded";
    /** What {@link #rulesWritten} calls the mock rule. */
    private static final String MOCK = "mock";

    private final TestingServer server;
    private final String connectString;
    private final Map<String, ProviderHost> providers;
    private final Weft consumerWeft;
    private final GreetingService consumer;
    private final ConsumerMeters meters;
    private final Operator operator;
    private final AdminCommands admin;
    /** The ids of the rules the admin wrote and the run has not deleted, by what they are for. */
    private final Map<String, String> rulesWritten = new LinkedHashMap<>();

    private LiveCluster(TestingServer server, String connectString, Map<String, ProviderHost> providers,
                        Weft consumerWeft, GreetingService consumer, Operator operator, ConsumerMeters meters) {
        this.meters = meters;
        this.server = server;
        this.connectString = connectString;
        this.providers = providers;
        this.consumerWeft = consumerWeft;
        this.consumer = consumer;
        this.operator = operator;
        this.admin = new AdminCommands(connectString);
    }

    /**
     * Starts everything. {@code zookeeper} is an external {@code host:port} or {@code null} for the
     * embedded server; providers named in {@code killable} (or all, with {@code processes}) run in
     * child JVMs.
     */
    static LiveCluster start(List<ProviderSpec> specs, String zookeeper, boolean processes, Set<String> killable,
                             long seed, String consumerParameters) throws Exception {
        Objects.requireNonNull(specs, "specs");
        TestingServer server = null;
        Operator operator = null;
        Map<String, ProviderHost> providers = new LinkedHashMap<>();
        Weft consumerWeft = null;
        try {
            String connectString = zookeeper;
            if (zookeeper == null) {
                server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, TICK_MILLIS, -1,
                        Map.of("clientPortAddress", "127.0.0.1", "maxSessionTimeout", Integer.toString(MAX_SESSION_MILLIS)),
                        "127.0.0.1"), true);
                connectString = "127.0.0.1:" + server.getPort();
            }
            operator = new Operator(connectString);
            String providerRegistry = "zookeeper://" + connectString + "?session=" + PROVIDER_SESSION_MILLIS;
            for (int i = 0; i < specs.size(); i++) {
                ProviderSpec spec = specs.get(i);
                long providerSeed = seed * 1_000_003L + i;
                ProviderHost host = processes || killable.contains(spec.name())
                        ? ChildProcessProvider.start(spec, providerRegistry, providerSeed)
                        : InJvmProvider.start(spec, providerRegistry, providerSeed);
                providers.put(spec.name(), host);
            }
            consumerWeft = Weft.builder().registry("zookeeper://" + connectString).application("playground").build();
            ConsumerMeters meters = new ConsumerMeters(consumerWeft.director());
            GreetingService consumer = consumerWeft.refer(GreetingService.class, withoutWaiting(consumerParameters));
            LiveCluster cluster = new LiveCluster(server, connectString, providers, consumerWeft, consumer, operator, meters);
            cluster.admin.warmUp();
            return cluster;
        } catch (Exception | Error e) {
            closeAll(consumerWeft, providers, operator, server);
            throw e;
        }
    }

    /**
     * The consumer's parameters with {@code check=false} unless they set {@code check}: the
     * providers are registered already, and {@link #warmUp} waits for every one of them, which on
     * a busy machine can take longer than the {@code timeout} that {@code check=true} waits.
     */
    static Map<String, String> withoutWaiting(String consumerParameters) {
        Map<String, String> parameters = new LinkedHashMap<>(URL.valueOf("consumer://127.0.0.1/"
                + GreetingService.class.getName() + (consumerParameters.isEmpty() ? "" : "?" + consumerParameters))
                .getParameters());
        parameters.putIfAbsent(CHECK_KEY, "false");
        return parameters;
    }

    /** The provider URL a spec is exported at: 127.0.0.1, a free port, its weight and zone, the {@link Brownout} filter on. */
    static String providerUrl(ProviderSpec spec) {
        return "weft://127.0.0.1:0?weight=" + spec.weight() + "&shutdown-timeout=" + SHUTDOWN_TIMEOUT_MILLIS
                + "&" + Brownout.KEY + "=on"
                + (spec.zone() == null ? "" : "&zone=" + spec.zone());
    }

    /**
     * Calls the consumer from this thread until every provider has answered once (connections open,
     * classes loaded on both sides), at most {@code maxMillis}; the timed run then starts warm.
     *
     * @return the providers that answered
     */
    Set<String> warmUp(long maxMillis) {
        Set<String> answered = new java.util.HashSet<>();
        long deadline = System.nanoTime() + maxMillis * 1_000_000;
        for (int i = 0; answered.size() < providers.size() && System.nanoTime() < deadline
                && !Thread.currentThread().isInterrupted(); i++) {
            String name = "warm-up-" + i;
            try {
                String answer = consumer.greet(name);
                if (GreetingServiceImpl.isProviderAnswer(name, answer)) {
                    answered.add(answer.substring(name.length() + 1));
                }
            } catch (RuntimeException e) {
                // providers not yet known to the consumer, or one still starting: try again shortly
                pause();
            }
        }
        return answered;
    }

    private static void pause() {
        try {
            Thread.sleep(WARM_UP_PAUSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    GreetingService consumer() {
        return consumer;
    }

    /**
     * The live run's canary share: one call in {@value LiveRun.Canary#EVERY} tagged
     * {@value LiveEvent#CANARY_TAG} through the consumer's {@code CallContext}.
     */
    LiveRun.Canary canary() {
        return new LiveRun.Canary(CallContext.of(consumerWeft.director()), LiveEvent.CANARY_TAG, LiveRun.Canary.EVERY);
    }

    /** The consumer's meters (Micrometer, Prometheus registry), bound before it referred the service. */
    ConsumerMeters meters() {
        return meters;
    }

    /** The consumer's meters for a {@link LiveRun}: their counts, and each provider's {@code 127.0.0.1:port}. */
    LiveRun.MeterSource meterSource() {
        Map<String, String> addresses = new LinkedHashMap<>();
        providers.forEach((name, host) -> addresses.put(name, "127.0.0.1:" + host.port()));
        return new LiveRun.MeterSource() {
            @Override
            public ConsumerMeters.Counts counts() {
                return meters.counts();
            }

            @Override
            public Map<String, String> addresses() {
                return addresses;
            }
        };
    }

    String connectString() {
        return connectString;
    }

    /** Whether ZooKeeper is the embedded server (the only one that can be restarted). */
    boolean embedded() {
        return server != null;
    }

    /**
     * Applies {@code event}: writes or deletes a rule through the admin's commands ({@link AdminCommands},
     * the code of {@code weft-admin.jar}), browns out, kills or shuts down a provider, or restarts
     * ZooKeeper.
     */
    void apply(LiveEvent event) throws Exception {
        switch (event.kind()) {
            case MOCK_ON -> rulesWritten.put(MOCK, admin.override(null, MOCK_RULE));
            case MOCK_OFF -> deleteRule(MOCK);
            case CANARY_ON -> rulesWritten.put(canary(event), admin.override(address(event), "tag=" + LiveEvent.CANARY_TAG));
            case CANARY_OFF -> deleteRule(canary(event));
            case WEIGHT -> rulesWritten.put(event.label(), admin.override(address(event),
                    "weight=" + LiveEvent.RAISED_WEIGHT));
            case DISABLE -> rulesWritten.put(event.label(), admin.override(address(event), "disabled=true"));
            case BROWNOUT_SLOW -> provider(event).brownout(Brownout.Phase.SLOW);
            case BROWNOUT_FAIL -> provider(event).brownout(Brownout.Phase.FAILING);
            case KILL -> provider(event).kill();
            case SHUTDOWN -> provider(event).shutdown();
            case ZOOKEEPER_RESTART -> {
                if (server == null) {
                    throw new IllegalStateException("ZooKeeper restart: an external ensemble (expected: the embedded one)");
                }
                server.restart();
            }
        }
    }

    private static String canary(LiveEvent event) {
        return "canary " + event.provider();
    }

    private void deleteRule(String purpose) {
        String id = rulesWritten.remove(purpose);
        if (id == null) {
            throw new IllegalStateException("no " + purpose + " rule written (expected: its event first)");
        }
        admin.deleteRule(id);
    }

    private String address(LiveEvent event) {
        return "127.0.0.1:" + provider(event).port();
    }

    private ProviderHost provider(LiveEvent event) {
        ProviderHost host = providers.get(event.provider());
        if (host == null) {
            throw new IllegalArgumentException("provider: " + event.provider() + " (expected one of "
                    + providers.keySet() + ")");
        }
        return host;
    }

    @Override
    public void close() {
        for (String id : rulesWritten.values()) {
            try {
                admin.deleteRule(id);
            } catch (RuntimeException e) {
                // best effort: an embedded server goes away anyway; an external one keeps a rule we name in the docs
            }
        }
        rulesWritten.clear();
        closeAll(consumerWeft, providers, operator, server);
        meters.close();
    }

    private static void closeAll(Weft consumer, Map<String, ProviderHost> providers, Operator operator,
                                 TestingServer server) {
        if (consumer != null) {
            consumer.close();
        }
        for (ProviderHost host : providers.values()) {
            host.close();
        }
        if (operator != null) {
            try {
                operator.deleteCreated();
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                // best effort: ZooKeeper unreachable now; --help and the docs name what the run writes
            }
            operator.close();
        }
        if (server != null) {
            try {
                server.close();
            } catch (java.io.IOException e) {
                // the temporary directory may linger; nothing else is held
            }
        }
    }
}
