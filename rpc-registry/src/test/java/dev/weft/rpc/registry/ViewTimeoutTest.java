package dev.weft.rpc.registry;

import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.filter.CallContext;
import dev.weft.rpc.testing.FakeProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An override of {@code timeout} reaches the protocol invoker of each listed provider as the
 * call's {@code timeout} attachment, per call, while the invoker keeps its refer URL (no new
 * connection); removing the override restores calls without it.
 */
class ViewTimeoutTest {

    private final Fixture fixture = new Fixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void timeoutOverride_reachesTheProtocolInvokerInTheCallOptions_andRemovingItRestoresTheReferUrlsTimeout() {
        fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory(Fixture.CONSUMER + "&timeout=2000");
        RpcInvocation call = sayHello();

        invokeFirst(directory, call);
        FakeProvider<?> provider = fixture.protocol.invokers.get(0);
        assertThat(provider.getUrl().getParameter("timeout")).isEqualTo("2000");
        assertThat(provider.lastInvocation().getCallOptions().url()).isNull();
        assertThat(effectiveTimeout(provider)).isEqualTo("2000");

        URL rule = fixture.override("0.0.0.0", "timeout=200");
        invokeFirst(directory, call);
        assertThat(effectiveTimeout(provider)).isEqualTo("200");
        assertThat(provider.lastInvocation().getAttachment("timeout")).as("never an attachment sent to the provider").isNull();

        fixture.registry.unregister(rule);
        invokeFirst(directory, call);
        assertThat(effectiveTimeout(provider)).isEqualTo("2000");
        assertThat(fixture.protocol.referred.get()).as("protocol invokers referred").isEqualTo(1);
    }

    @Test
    void methodTimeoutOverride_appliesToThatMethodOnly() {
        fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        fixture.override("0.0.0.0", "sayHello.timeout=150");

        invokeFirst(directory, sayHello());
        FakeProvider<?> provider = fixture.protocol.invokers.get(0);
        assertThat(effectiveTimeout(provider)).isEqualTo("150");

        invokeFirst(directory, new RpcInvocation("sayBye", new Class<?>[] {String.class}, new Object[] {"x"}));
        assertThat(provider.lastInvocation().getMethodName()).isEqualTo("sayBye");
        assertThat(effectiveTimeout(provider)).isNull();
    }

    @Test
    void timeoutOverride_leavesATimeoutTheCallerAttached() {
        fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        fixture.override("0.0.0.0", "timeout=200");

        invokeFirst(directory, sayHello().setAttachment("timeout", "700").setAttachment("trace", "t1"));
        Invocation received = fixture.protocol.invokers.get(0).lastInvocation();
        assertThat(received.getAttachments()).containsEntry("timeout", "700").containsEntry("trace", "t1");
    }

    @Test
    void timeoutOverride_leavesATimeoutTheCallerSetInTheCallContext() {
        fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        fixture.override("0.0.0.0", "timeout=200");

        try (CallContext.Scope scope = CallContext.of(fixture.director).with("timeout", "700")) {
            invokeFirst(directory, sayHello());
        }
        assertThat(fixture.protocol.invokers.get(0).lastInvocation().getAttachment("timeout")).isEqualTo("700");
    }

    @Test
    void viewWithTheOverride_carriesTheOtherAttachmentsAndTheSignature() {
        fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        fixture.override("0.0.0.0", "timeout=200");

        invokeFirst(directory, sayHello().setAttachment("trace", "t1"));
        Invocation received = fixture.protocol.invokers.get(0).lastInvocation();
        assertThat(received.getAttachments()).containsEntry("trace", "t1");
        assertThat(effectiveTimeout(fixture.protocol.invokers.get(0))).isEqualTo("200");
        assertThat(received.getParameterTypes()).containsExactly(String.class);
        assertThat(received.getArguments()).containsExactly("ada");
        assertThat(received.getReturnType()).isEqualTo(String.class);
    }

    /** The timeout that applies to the provider's last call: the view URL in its call options, else the provider's own. */
    private static String effectiveTimeout(FakeProvider<?> provider) {
        Invocation last = provider.lastInvocation();
        return CallOptions.urlOf(provider, last).getMethodParameter(last.getMethodName(), "timeout");
    }

    private static RpcInvocation sayHello() {
        return new RpcInvocation("sayHello", new Class<?>[] {String.class}, new Object[] {"ada"}, String.class, String.class);
    }

    private static void invokeFirst(RegistryDirectory<DemoService> directory, Invocation invocation) {
        List<Invoker<DemoService>> invokers = directory.getInvokers();
        assertThat(invokers).hasSize(1);
        assertThat(invokers.get(0).invoke(invocation).getValue()).isEqualTo("10.0.0.1:1");
    }
}
