package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Calls;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.protocol.Greeter;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class ContextFilterTest {

    private final ExtensionDirector director = new ExtensionDirector(ContextFilterTest.class.getClassLoader());
    private final CallContext context = CallContext.of(director);

    @AfterEach
    void close() {
        director.close();
    }

    private Map<String, String> sent(String consumerUrl, Invocation invocation) {
        AtomicReference<Map<String, String>> received = new AtomicReference<>();
        Invoker<Greeter> provider = recording(consumerUrl, received);
        FilterChain.consumer(provider, director).invoke(invocation);
        return received.get();
    }

    @Test
    void consumer_attachesTheApplicationFromTheUrl() {
        assertThat(sent("injvm://127.0.0.1/x?application=shop", Calls.greet("ada"))).containsExactly(Map.entry("application", "shop"));
    }

    @Test
    void consumer_withNothingToAttach_sendsNoAttachments() {
        assertThat(sent("injvm://127.0.0.1/x", Calls.greet("ada"))).isEmpty();
    }

    @Test
    void consumer_attachesThisThreadsContext_onlyInsideTheScope() {
        CallContext.Scope scope = context.with("trace-id", "t-1");
        try {
            assertThat(sent("injvm://127.0.0.1/x?application=shop", Calls.greet("ada")))
                    .containsOnly(Map.entry("trace-id", "t-1"), Map.entry("application", "shop"));
        } finally {
            scope.close();
        }
        assertThat(context.attachments()).isEmpty();
        assertThat(sent("injvm://127.0.0.1/x", Calls.greet("ada"))).isEmpty();
    }

    @Test
    void consumer_invocationsOwnAttachmentsWin_andOwnApplicationReplacesTheThreadsOne() {
        RpcInvocation call = Calls.greet("ada").setAttachment("trace-id", "explicit");
        CallContext.Scope scope = context.with(Map.of("trace-id", "t-1", "application", "upstream", "tenant", "acme"));
        try {
            assertThat(sent("injvm://127.0.0.1/x?application=shop", call))
                    .containsOnly(Map.entry("trace-id", "explicit"), Map.entry("application", "shop"), Map.entry("tenant", "acme"));
        } finally {
            scope.close();
        }
    }

    @Test
    void consumer_copiesAnInvocationThatIsNotAnRpcInvocation() {
        Invocation foreign = new ForwardingInvocation(Calls.greet("ada"));
        assertThat(sent("injvm://127.0.0.1/x?application=shop", foreign)).containsExactly(Map.entry("application", "shop"));
    }

    @Test
    void nestedScopes_restoreTheOuterAttachments() {
        CallContext.Scope outer = context.with("trace-id", "t-1");
        CallContext.Scope inner = context.with("span", "s-2");
        assertThat(context.attachments()).containsOnly(Map.entry("trace-id", "t-1"), Map.entry("span", "s-2"));
        inner.close();
        assertThat(context.attachments()).containsOnly(Map.entry("trace-id", "t-1"));
        assertThat(context.get("trace-id")).isEqualTo("t-1");
        outer.close();
        assertThat(context.get("trace-id")).isNull();
    }

    @Test
    void provider_seesTheCallersAttachmentsWhileRunning_andNestedCallsCarryThem() {
        AtomicReference<Map<String, String>> seenByService = new AtomicReference<>();
        AtomicReference<Map<String, String>> sentOnward = new AtomicReference<>();
        Invoker<Greeter> downstream = FilterChain.consumer(recording("injvm://127.0.0.1/y?application=orders", sentOnward), director);
        Invoker<Greeter> service = FakeProvider.at(Greeter.class, URL.valueOf("injvm://127.0.0.1/x"))
                .answering(Reply.computed(invocation -> {
                    seenByService.set(context.attachments());
                    downstream.invoke(Calls.greet("nested"));
                    return "ok";
                }));
        RpcInvocation incoming = Calls.greet("ada").setAttachment("trace-id", "t-9").setAttachment("application", "shop")
                .setAttachment("timeout", "300");
        assertThat(FilterChain.provider(service, director).invoke(incoming).getValue()).isEqualTo("ok");
        assertThat(seenByService.get()).containsOnly(Map.entry("trace-id", "t-9"), Map.entry("application", "shop"));
        assertThat(sentOnward.get()).containsOnly(Map.entry("trace-id", "t-9"), Map.entry("application", "orders"));
        assertThat(context.attachments()).isEmpty();
    }

    @Test
    void provider_runningOnAThreadWithAContext_seesOnlyWhatTheCallCarried_evenNothing() {
        AtomicReference<Map<String, String>> seenByService = new AtomicReference<>();
        Invoker<Greeter> service = FakeProvider.at(Greeter.class, URL.valueOf("injvm://127.0.0.1/x"))
                .answering(Reply.computed(invocation -> {
                    seenByService.set(context.attachments());
                    return "ok";
                }));
        CallContext.Scope callersOwn = context.with("trace-id", "caller's");
        try {
            // an in-JVM provider runs on its caller's thread: a call that carried nothing sees nothing
            assertThat(FilterChain.provider(service, director).invoke(Calls.greet("ada")).getValue()).isEqualTo("ok");
            assertThat(seenByService.get()).isEmpty();
            assertThat(context.attachments()).containsOnly(Map.entry("trace-id", "caller's"));
        } finally {
            callersOwn.close();
        }
    }

    @Test
    void provider_attachmentWithANullValue_isLeftOutOfTheContext_andTheServiceRuns() {
        AtomicReference<Map<String, String>> seenByService = new AtomicReference<>();
        Invoker<Greeter> service = FakeProvider.at(Greeter.class, URL.valueOf("injvm://127.0.0.1/x"))
                .answering(Reply.computed(invocation -> {
                    seenByService.set(context.attachments());
                    return "ok";
                }));
        RpcInvocation incoming = Calls.greet("ada").setAttachment("trace-id", "t-9").setAttachment("tenant", null);
        assertThat(FilterChain.provider(service, director).invoke(incoming).getValue()).isEqualTo("ok");
        assertThat(seenByService.get()).containsOnly(Map.entry("trace-id", "t-9"));
    }

    @Test
    void consumer_timeoutSetInTheContext_travelsAsThatCallsDeadline() {
        CallContext.Scope scope = context.with("timeout", "250");
        try {
            assertThat(sent("injvm://127.0.0.1/x", Calls.greet("ada"))).containsExactly(Map.entry("timeout", "250"));
        } finally {
            scope.close();
        }
    }

    /** A provider at {@code url} that records the attachments of the last call it received. */
    private static FakeProvider<Greeter> recording(String url, AtomicReference<Map<String, String>> received) {
        return FakeProvider.at(Greeter.class, URL.valueOf(url)).answering(Reply.computed(invocation -> {
            received.set(Map.copyOf(invocation.getAttachments()));
            return "ok";
        }));
    }

    /** An Invocation that is not an RpcInvocation. */
    private static final class ForwardingInvocation implements Invocation {
        private final Invocation delegate;

        ForwardingInvocation(Invocation delegate) {
            this.delegate = delegate;
        }

        @Override
        public String getMethodName() {
            return delegate.getMethodName();
        }

        @Override
        public Class<?>[] getParameterTypes() {
            return delegate.getParameterTypes();
        }

        @Override
        public Object[] getArguments() {
            return delegate.getArguments();
        }

        @Override
        public Class<?> getReturnType() {
            return delegate.getReturnType();
        }

        @Override
        public java.lang.reflect.Type getGenericReturnType() {
            return delegate.getGenericReturnType();
        }

        @Override
        public Map<String, String> getAttachments() {
            return delegate.getAttachments();
        }

        @Override
        public String getAttachment(String key) {
            return delegate.getAttachment(key);
        }
    }
}
