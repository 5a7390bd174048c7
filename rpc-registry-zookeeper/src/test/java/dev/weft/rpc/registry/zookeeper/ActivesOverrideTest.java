package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.InvokerView;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.registry.RegistryDirectory;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.Calls;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.HeldCalls;
import dev.weft.rpc.testing.Reply;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An operator's {@code actives} override, written into a real embedded ZooKeeper, reaches the
 * consumer's {@code actives} filter from the next call on: added (a call beyond the limit waits
 * up to the consumer's {@code timeout}, then fails {@code NOT_PROCESSED}), changed, removed, and in
 * its method-level form, over the invoker referred at start. The provider is exported on the
 * in-JVM {@code injvm} protocol, its calls held by the test.
 */
class ActivesOverrideTest {

    /** The consumer's timeout: how long a call beyond the limit waits for a permit. */
    private static final long TIMEOUT_MILLIS = 300;
    private static final Duration AWAIT = Duration.ofSeconds(20);

    /** The service of these tests. */
    public interface Greeting {
        String sayHello(String name);

        String sayBye(String name);
    }

    private static final String SERVICE = Greeting.class.getName();
    /** The service's folder as the registry names it: the interface name URL-encoded ({@code $} is {@code %24}). */
    private static final String CONFIGURATORS = "/weft/" + URLEncoder.encode(SERVICE, StandardCharsets.UTF_8) + "/configurators/";

    private final ExtensionDirector director = new ExtensionDirector(ActivesOverrideTest.class.getClassLoader());
    private final ExecutorService callers = Executors.newFixedThreadPool(6);
    private final List<Future<Object>> calls = new ArrayList<>();
    private TestingServer server;
    private CuratorFramework operator;
    private ZookeeperRegistry providerSide;
    private ZookeeperRegistry consumerSide;
    private Exporter<Greeting> exporter;
    private FakeProvider<Greeting> provider;
    private RegistryDirectory<Greeting> directory;
    private Invoker<Greeting> cluster;
    private HeldCalls held;

    @BeforeEach
    void start() throws Exception {
        server = EmbeddedZooKeeper.server();
        operator = EmbeddedZooKeeper.operator(server.getConnectString());
        providerSide = new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(server.getConnectString(), ""));
        consumerSide = new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(server.getConnectString(), ""));

        URL providerUrl = URL.valueOf("injvm://127.0.0.1/" + SERVICE + "?application=greeter");
        provider = FakeProvider.at(Greeting.class, providerUrl).answering(Reply.value("hello"));
        held = provider.holdCalls();
        exporter = director.getExtensionLoader(Protocol.class).getAdaptiveExtension().export(provider);
        providerSide.register(providerUrl);

        URL consumerUrl = URL.valueOf("consumer://127.0.0.1/" + SERVICE
                + "?application=shop&cluster=failfast&timeout=" + TIMEOUT_MILLIS);
        directory = RegistryDirectory.builder(Greeting.class, consumerUrl, consumerSide).director(director).build();
        cluster = director.getExtensionLoader(Cluster.class).getAdaptiveExtension().join(directory);
        Await.until("the provider listed", () -> directory.getInvokers().size() == 1, directory::toString);
    }

    @AfterEach
    void stop() throws Exception {
        held.releaseAll();
        callers.shutdownNow();
        assertThat(callers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        cluster.destroy();
        directory.destroy();
        exporter.unexport();
        consumerSide.close();
        providerSide.close();
        director.close();
        operator.close();
        server.close();
    }

    @Test
    void activesOverride_added_changed_removed_reachesTheFilter_ofTheInvokerReferredAtStart() throws Exception {
        Invoker<?> referred = protocolInvoker();

        String one = push("actives=1");
        awaitListedWith("actives", "1");
        callInBackground("sayHello");
        assertThat(held.awaitHeld(1, AWAIT)).isTrue();
        assertWaitsThenFailsNotProcessed("sayHello", 1);
        assertThat(provider.calls()).as("the refused call never reached the provider").isEqualTo(1);

        operator.delete().forPath(one);
        String three = push("actives=3");
        awaitListedWith("actives", "3");
        callInBackground("sayHello");
        callInBackground("sayHello");
        assertThat(held.awaitHeld(3, AWAIT)).as("3 in flight under actives=3").isTrue();
        assertWaitsThenFailsNotProcessed("sayHello", 3);

        operator.delete().forPath(three);
        awaitListedWith("actives", null);
        callInBackground("sayHello");
        callInBackground("sayHello");
        assertThat(held.awaitHeld(5, AWAIT)).as("no limit once the override is deleted").isTrue();

        held.releaseAll();
        awaitCallsAnswered();
        assertThat(provider.calls()).isEqualTo(5);
        assertThat(protocolInvoker()).as("the invoker referred at start, never re-referred").isSameAs(referred);
    }

    @Test
    void methodActivesOverride_limitsThatMethod_andTheOtherMethodStaysUnlimited() throws Exception {
        push("sayHello.actives=1");
        awaitListedWith("sayHello.actives", "1");

        callInBackground("sayHello");
        assertThat(held.awaitHeld(1, AWAIT)).isTrue();
        assertWaitsThenFailsNotProcessed("sayHello", 1);
        callInBackground("sayBye");
        callInBackground("sayBye");
        assertThat(held.awaitHeld(3, AWAIT)).as("sayBye has no limit").isTrue();

        held.releaseAll();
        awaitCallsAnswered();
        assertThat(provider.methods()).containsExactlyInAnyOrder("sayHello", "sayBye", "sayBye");
    }

    @Test
    void badActivesOverride_isLeftOut_andCallsGoOnUnlimited() throws Exception {
        long problems = directory.getProblemCount();
        push("actives=-1");
        Await.until("the bad rule reported", () -> directory.getProblemCount() > problems, directory::toString);

        assertThat(directory.getInvokers().get(0).getUrl().hasParameter("actives")).isFalse();
        callInBackground("sayHello");
        callInBackground("sayHello");
        assertThat(held.awaitHeld(2, AWAIT)).isTrue();
        held.releaseAll();
        awaitCallsAnswered();
    }

    /** Writes an override node as an operator would, returning its path. */
    private String push(String query) throws Exception {
        URL rule = URL.valueOf("override://0.0.0.0/" + SERVICE + "?category=configurators&dynamic=false&" + query);
        String path = CONFIGURATORS + NodeNames.encode(rule);
        operator.create().creatingParentsIfNeeded().forPath(path);
        return path;
    }

    private void awaitListedWith(String key, String value) {
        Await.until("the provider listed with " + key + "=" + value, () -> {
            List<Invoker<Greeting>> invokers = directory.getInvokers();
            return invokers.size() == 1 && Objects.equals(invokers.get(0).getUrl().getParameter(key), value);
        }, directory::toString);
    }

    private Invoker<?> protocolInvoker() {
        return InvokerView.unwrap(directory.getInvokers().get(0));
    }

    private void callInBackground(String method) {
        calls.add(callers.submit(() -> Calls.invoke(cluster, call(method)).getValue()));
    }

    private void awaitCallsAnswered() throws Exception {
        for (Future<Object> call : calls) {
            assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("hello");
        }
    }

    private void assertWaitsThenFailsNotProcessed(String method, int limit) {
        long started = System.nanoTime();
        assertThatThrownBy(() -> Calls.invoke(cluster, call(method)).recreate())
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                .hasMessageContaining(": " + limit + " still after waiting " + TIMEOUT_MILLIS + " ms (expected: below actives="
                        + limit + ";");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
                .as("waited for a permit up to the deadline").isGreaterThanOrEqualTo(TIMEOUT_MILLIS - 20);
    }

    private static RpcInvocation call(String method) {
        return new RpcInvocation(method, new Class<?>[] {String.class}, new Object[] {"ada"}, String.class, String.class);
    }
}
