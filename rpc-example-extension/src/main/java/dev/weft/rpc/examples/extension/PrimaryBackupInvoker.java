package dev.weft.rpc.examples.extension;

import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The invoker {@link PrimaryBackupCluster} joins over a directory: lists the providers for each
 * call, orders them by {@value PrimaryBackupCluster#RANK_KEY}, and calls them in turn until one answers.
 *
 * <p>It owns the directory: {@link #destroy()} destroys it. Thread-safe: it keeps no per-call
 * state in fields.
 */
final class PrimaryBackupInvoker<T> implements Invoker<T> {

    private final Directory<T> directory;
    private final AtomicBoolean destroyed = new AtomicBoolean();

    PrimaryBackupInvoker(Directory<T> directory) {
        this.directory = directory;
    }

    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        Objects.requireNonNull(invocation, "invocation");
        if (destroyed.get()) {
            throw new RpcException("primarybackup invoker of service " + getInterface().getName()
                    + " is destroyed; refusing call of method " + invocation.getMethodName());
        }
        List<Invoker<T>> ordered = new ArrayList<>(directory.list(invocation));
        if (ordered.isEmpty()) {
            throw new RpcException(RpcException.NO_INVOKER_AVAILABLE, "No provider available for method "
                    + invocation.getMethodName() + " of service " + getInterface().getName() + " (consumer: " + getUrl() + ")");
        }
        ordered.sort(Comparator.comparingInt(PrimaryBackupInvoker::rank));
        List<String> tried = new ArrayList<>(ordered.size());
        RpcException last = null;
        for (Invoker<T> provider : ordered) {
            try {
                return provider.invoke(invocation);
            } catch (RpcException e) {
                if (!canTryNext(e)) {
                    throw e;
                }
                tried.add(provider.getUrl().getAddress());
                last = e;
            }
        }
        throw new RpcException(last.getCode(), "primarybackup: every provider failed for method " + invocation.getMethodName()
                + " of service " + getInterface().getName() + " (tried " + tried + "; consumer: " + getUrl() + "); last: "
                + last.getMessage(), last);
    }

    /** The provider did not answer: nothing the service decided is lost by asking the next one. */
    private static boolean canTryNext(RpcException failure) {
        return failure.isNetwork() || failure.isTimeout() || failure.isNotProcessed();
    }

    private static int rank(Invoker<?> provider) {
        URL url = provider.getUrl();
        return url.getParameter(PrimaryBackupCluster.RANK_KEY, 0);
    }

    /** The directory's current consumer URL. */
    @Override
    public URL getUrl() {
        return directory.getUrl();
    }

    @Override
    public Class<T> getInterface() {
        return directory.getInterface();
    }

    @Override
    public boolean isAvailable() {
        return !destroyed.get() && directory.isAvailable();
    }

    /** Refuses further calls and destroys the directory; idempotent. */
    @Override
    public void destroy() {
        if (destroyed.compareAndSet(false, true)) {
            directory.destroy();
        }
    }

    @Override
    public String toString() {
        return "PrimaryBackupInvoker[" + getInterface().getName() + ", " + getUrl() + "]";
    }
}
