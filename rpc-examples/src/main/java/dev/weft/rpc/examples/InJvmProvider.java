package dev.weft.rpc.examples;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.protocol.Exporter;

import java.util.Objects;

/**
 * A provider in this JVM: its own {@link Weft} (own ZooKeeper session, own server) so it can be shut
 * down on its own. It cannot be killed: see {@link ChildProcessProvider}.
 */
final class InJvmProvider implements ProviderHost {

    private final String name;
    private final Weft weft;
    private final int port;
    private final long latencyNanos;

    private InJvmProvider(String name, Weft weft, int port, long latencyNanos) {
        this.name = name;
        this.weft = weft;
        this.port = port;
        this.latencyNanos = latencyNanos;
    }

    /** Exports {@code spec} on a free port of 127.0.0.1, registered in {@code registryUrl}. */
    static InJvmProvider start(ProviderSpec spec, String registryUrl, long seed) {
        Objects.requireNonNull(spec, "spec");
        Weft weft = Weft.builder().registry(registryUrl).application("playground-" + spec.name()).build();
        try {
            Exporter<GreetingService> exporter = weft.export(GreetingService.class,
                    new LatentGreetingService(spec.name(), spec.latencyNanos(), seed), LiveCluster.providerUrl(spec));
            return new InJvmProvider(spec.name(), weft, exporter.getInvoker().getUrl().getPort(), spec.latencyNanos());
        } catch (RuntimeException e) {
            weft.close();
            throw e;
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void shutdown() {
        weft.close();
    }

    @Override
    public void brownout(Brownout.Phase phase) {
        Brownout.stateOf(weft.director()).enter(phase, latencyNanos);
    }

    @Override
    public void kill() {
        throw new UnsupportedOperationException("provider " + name + ": runs in this JVM (expected: a child process)");
    }

    @Override
    public boolean killable() {
        return false;
    }

    @Override
    public void close() {
        weft.close();
    }
}
