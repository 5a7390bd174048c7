package dev.weft.rpc.registry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.testing.Calls;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.HeldCalls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An override of {@code actives} reaches the {@code actives} filter of the provider's existing
 * consumer chain from the next call on (added, changed, removed; service and method level), with
 * no new refer, no attachment sent, and the permits of calls in flight kept. The consumer's
 * {@code timeout=100} bounds each wait for a permit.
 */
class ViewActivesTest {

    private static final Duration AWAIT = Duration.ofSeconds(10);

    private final Fixture fixture = new Fixture();
    private final ExecutorService callers = Executors.newFixedThreadPool(4);
    private final List<Future<Object>> calls = new ArrayList<>();

    @AfterEach
    void close() throws InterruptedException {
        callers.shutdownNow();
        assertThat(callers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        fixture.close();
    }

    private RegistryDirectory<DemoService> directory() {
        fixture.provider("10.0.0.1:1", "");
        return fixture.directory(Fixture.CONSUMER + "&timeout=100");
    }

    private static Invoker<DemoService> only(RegistryDirectory<DemoService> directory) {
        List<Invoker<DemoService>> invokers = directory.getInvokers();
        assertThat(invokers).hasSize(1);
        return invokers.get(0);
    }

    /** Calls the provider (as the directory lists it now) on a caller thread. */
    private void callInBackground(RegistryDirectory<DemoService> directory, RpcInvocation invocation) {
        Invoker<DemoService> invoker = only(directory);
        calls.add(callers.submit(() -> Calls.invoke(invoker, invocation).getValue()));
    }

    private static void assertNotProcessedBeyond(Invoker<DemoService> invoker, Invocation invocation, int limit) {
        assertThatThrownBy(() -> Calls.invoke(invoker, invocation)) // the refusal ends the waiting call
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                .hasMessageContaining(": " + limit + " still after waiting 100 ms (expected: below actives=" + limit + ";");
    }

    private void awaitCalls() throws Exception {
        for (Future<Object> call : calls) {
            assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("10.0.0.1:1");
        }
    }

    @Test
    void activesOverride_added_changed_removed_appliesToTheNextCall_overTheSameInvoker() throws Exception {
        RegistryDirectory<DemoService> directory = directory();
        FakeProvider<?> provider = fixture.protocol.invokers.get(0);
        HeldCalls held = provider.holdCalls();

        URL one = fixture.override("0.0.0.0", "actives=1");
        callInBackground(directory, sayHello());
        assertThat(held.awaitHeld(1, AWAIT)).isTrue();
        assertNotProcessedBeyond(only(directory), sayHello(), 1);

        fixture.registry.unregister(one);
        URL three = fixture.override("0.0.0.0", "actives=3");
        callInBackground(directory, sayHello());
        callInBackground(directory, sayHello());
        assertThat(held.awaitHeld(3, AWAIT)).as("the call held under actives=1 and two more").isTrue();
        assertNotProcessedBeyond(only(directory), sayHello(), 3);

        fixture.registry.unregister(three);
        callInBackground(directory, sayHello());
        assertThat(held.awaitHeld(4, AWAIT)).as("no limit once the override is gone").isTrue();

        held.releaseAll();
        awaitCalls();
        assertThat(provider.calls()).isEqualTo(4);
        assertThat(fixture.protocol.referred.get()).as("protocol invokers referred").isEqualTo(1);
        assertThat(provider.isDestroyed()).isFalse();
    }

    @Test
    void permitsTakenUnderAnOverride_areReleased_whenItIsGone() throws Exception {
        RegistryDirectory<DemoService> directory = directory();
        FakeProvider<?> provider = fixture.protocol.invokers.get(0);
        HeldCalls held = provider.holdCalls();
        URL rule = fixture.override("0.0.0.0", "actives=2");
        callInBackground(directory, sayHello());
        callInBackground(directory, sayHello());
        assertThat(held.awaitHeld(2, AWAIT)).isTrue();

        fixture.registry.unregister(rule);
        held.releaseAll();
        awaitCalls();
        fixture.override("0.0.0.0", "actives=2");

        HeldCalls again = provider.holdCalls();
        calls.clear();
        callInBackground(directory, sayHello());
        callInBackground(directory, sayHello());
        assertThat(again.awaitHeld(2, AWAIT)).as("both permits came back").isTrue();
        assertNotProcessedBeyond(only(directory), sayHello(), 2);
        again.releaseAll();
        awaitCalls();
    }

    @Test
    void methodActivesOverride_limitsThatMethodOnly() throws Exception {
        RegistryDirectory<DemoService> directory = directory();
        HeldCalls held = fixture.protocol.invokers.get(0).holdCalls();
        fixture.override("0.0.0.0", "sayHello.actives=1");

        callInBackground(directory, sayHello());
        assertThat(held.awaitHeld(1, AWAIT)).isTrue();
        assertNotProcessedBeyond(only(directory), sayHello(), 1);
        callInBackground(directory, sayBye());
        callInBackground(directory, sayBye());
        assertThat(held.awaitHeld(3, AWAIT)).as("sayBye has no limit").isTrue();

        held.releaseAll();
        awaitCalls();
    }

    @Test
    void activesOverride_sendsNoAttachment_andPassesTheViewInTheCallOptions() {
        RegistryDirectory<DemoService> directory = directory();
        fixture.override("0.0.0.0", "actives=2");
        RpcInvocation call = sayHello().setAttachment("trace", "t1");

        assertThat(only(directory).invoke(call).getValue()).isEqualTo("10.0.0.1:1");

        Invocation received = fixture.protocol.invokers.get(0).lastInvocation();
        assertThat(received.getAttachments()).as("the caller's and the context filter's only")
                .isEqualTo(Map.of("trace", "t1", "application", "shop"));
        assertThat(received.getCallOptions().url().getParameter("actives")).isEqualTo("2");
    }

    @Test
    void viewWithoutAPerCallChange_handsTheCallersInvocationOnAsItIs() {
        RegistryDirectory<DemoService> directory = directory();
        RpcInvocation plain = sayHello();
        only(directory).invoke(plain);
        assertThat(fixture.protocol.invokers.get(0).lastInvocation()).isSameAs(plain);

        fixture.override("0.0.0.0", "weight=300");
        RpcInvocation weighted = sayHello();
        only(directory).invoke(weighted);
        assertThat(fixture.protocol.invokers.get(0).lastInvocation()).isSameAs(weighted);
    }

    @Test
    void badActivesOverride_isLeftOutAndCounted_theLastGoodLimitKeepsServing() throws Exception {
        RegistryDirectory<DemoService> directory = directory();
        HeldCalls held = fixture.protocol.invokers.get(0).holdCalls();
        fixture.override("0.0.0.0", "actives=1");
        long problemsBefore = directory.getProblemCount();

        fixture.override("0.0.0.0", "actives=-1&priority=5");
        fixture.override("0.0.0.0", "sayHello.actives=many&priority=6");

        assertThat(Fixture.providerValues(directory, "actives")).isEqualTo(Map.of("10.0.0.1:1", "1"));
        assertThat(only(directory).getUrl().hasParameter("sayHello.actives")).isFalse();
        assertThat(directory.getProblemCount()).isGreaterThanOrEqualTo(problemsBefore + 2);
        callInBackground(directory, sayHello());
        assertThat(held.awaitHeld(1, AWAIT)).isTrue();
        assertNotProcessedBeyond(only(directory), sayHello(), 1);
        held.releaseAll();
        awaitCalls();
    }

    @Test
    void badActivesOverride_onAProviderWithNoActives_isLeftOutAndCounted_callsGoOnUnlimited() {
        RegistryDirectory<DemoService> directory = directory();
        long problemsBefore = directory.getProblemCount();

        fixture.override("0.0.0.0", "actives=-1");
        fixture.override("0.0.0.0:1", "sayHello.actives=many&weight=7");

        assertThat(only(directory).getUrl().getParameters()).doesNotContainKeys("actives", "sayHello.actives")
                .doesNotContainEntry("weight", "7");
        assertThat(directory.getProblemCount()).isGreaterThanOrEqualTo(problemsBefore + 2);
        assertThat(only(directory).invoke(sayHello()).getValue()).isEqualTo("10.0.0.1:1");
    }

    private static RpcInvocation sayHello() {
        return new RpcInvocation("sayHello", new Class<?>[] {String.class}, new Object[] {"ada"}, String.class, String.class);
    }

    private static RpcInvocation sayBye() {
        return new RpcInvocation("sayBye", new Class<?>[] {String.class}, new Object[] {"ada"}, String.class, String.class);
    }
}
