package dev.weft.rpc.protocol;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.spi.Activate;

/**
 * Test filters that append their name to the attachment {@value #VISITED}. The automatic ones
 * activate only when the URL carries {@value #RECORD_KEY}, so they stay out of other tests.
 */
public final class RecordingFilters {

    public static final String VISITED = "visited";
    public static final String RECORD_KEY = "record";

    private RecordingFilters() {
    }

    abstract static class Recording implements Filter {
        private final String name;

        Recording(String name) {
            this.name = name;
        }

        @Override
        public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
            String visited = invocation.getAttachment(VISITED);
            ((RpcInvocation) invocation).setAttachment(VISITED, visited == null ? name : visited + "," + name);
            return next.invoke(invocation);
        }
    }

    @Activate(group = FilterChain.CONSUMER, value = RECORD_KEY, order = -1)
    public static final class First extends Recording {
        public First() {
            super("rec-first");
        }
    }

    @Activate(group = FilterChain.CONSUMER, value = RECORD_KEY, order = 1)
    public static final class Second extends Recording {
        public Second() {
            super("rec-second");
        }
    }

    /** Same order as {@link Second}: placed after it by name. */
    @Activate(group = {FilterChain.CONSUMER, FilterChain.PROVIDER}, value = RECORD_KEY, order = 1)
    public static final class Third extends Recording {
        public Third() {
            super("rec-third");
        }
    }

    /** Not automatic: only when named in the {@code filter} key. */
    public static final class Named extends Recording {
        public Named() {
            super("rec-named");
        }
    }

    /** {@code @Activate} without a group: a filter for either side, activated by its own key. */
    @Activate(value = "record-both")
    public static final class EitherSide extends Recording {
        public EitherSide() {
            super("rec-both");
        }
    }

    @Activate(group = FilterChain.PROVIDER, value = RECORD_KEY)
    public static final class ProviderOnly extends Recording {
        public ProviderOnly() {
            super("rec-provider");
        }
    }

    /** Reads no URL keys and cannot be built here (as a filter whose licence server is down): only naming it fails. */
    public static final class Unbuildable implements Filter {
        public Unbuildable() {
            throw new IllegalStateException("licence server unreachable");
        }

        @Override
        public Result invoke(Invoker<?> next, Invocation invocation) {
            return next.invoke(invocation);
        }
    }

    /** A chain-scoped filter that refuses every invoker when asked for its chain's filter. */
    public static final class Unchainable implements ChainScopedFilter {
        @Override
        public Filter forChain(Invoker<?> invoker) {
            throw new IllegalArgumentException("no counters for " + invoker.getUrl().getAddress());
        }
    }
}
