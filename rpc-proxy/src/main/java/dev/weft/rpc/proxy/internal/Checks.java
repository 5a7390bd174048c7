package dev.weft.rpc.proxy.internal;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Objects;

/** Argument checks shared by both factories, with the messages users see. */
final class Checks {

    private Checks() {
    }

    /** The invoker's interface, checked to be one. */
    static <T> Class<T> proxyInterface(Invoker<T> invoker) {
        Objects.requireNonNull(invoker, "invoker");
        Class<T> type = invoker.getInterface();
        checkArgument(type != null, "invoker.getInterface(): null (expected: the service interface) for %s", invoker);
        checkArgument(type.isInterface(), "invoker.getInterface(): %s (expected: an interface)", type.getName());
        checkArgument(!type.isSealed(),
                "invoker.getInterface(): %s (expected: an interface that is not sealed, a proxy class cannot be one of "
                        + "its permitted subclasses)", type.getName());
        return type;
    }

    /** Checks the arguments of {@code getInvoker}. */
    static <T> void invokerArguments(T impl, Class<T> type, URL url) {
        Objects.requireNonNull(impl, "impl");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(url, "url");
        checkArgument(type.isInterface(), "type: %s (expected: an interface)", type.getName());
        checkArgument(type.isInstance(impl), "impl: %s (expected: an instance of %s)",
                impl.getClass().getName(), type.getName());
    }
}
