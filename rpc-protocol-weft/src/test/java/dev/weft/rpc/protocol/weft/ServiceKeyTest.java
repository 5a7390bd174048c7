package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static dev.weft.rpc.protocol.weft.FaultTest.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Exports on one port are told apart by interface, group and version; a consumer reaches only its own. */
class ServiceKeyTest {

    /** A service whose answer says which export ran it. */
    public interface Tagged {
        String tag(String suffix);
    }

    @AfterAll
    static void noLeaks() {
        LeakCounter.assertNoLeaks();
    }

    private static Exporter<Tagged> export(Loopback loopback, int port, String tag, String params) {
        URL url = URL.valueOf("weft://127.0.0.1:" + port + "/" + Tagged.class.getName()
                + (params.isEmpty() ? "" : "?" + params));
        return loopback.protocol.export(Loopback.provider(Tagged.class, suffix -> tag + suffix, url));
    }

    @Test
    void groupAndVersion_onOnePort_eachConsumerReachesExactlyItsOwnExport() {
        try (Loopback loopback = new Loopback()) {
            Exporter<Tagged> plain = export(loopback, 0, "plain", "");
            int port = plain.getInvoker().getUrl().getPort();
            export(loopback, port, "a1", "group=a&version=1");
            export(loopback, port, "a2", "group=a&version=2");
            export(loopback, port, "b1", "group=b&version=1");

            assertThat(tag(loopback, port, "")).isEqualTo("plain!");
            assertThat(tag(loopback, port, "group=a&version=1")).isEqualTo("a1!");
            assertThat(tag(loopback, port, "group=a&version=2")).isEqualTo("a2!");
            assertThat(tag(loopback, port, "group=b&version=1")).isEqualTo("b1!");
        }
    }

    @Test
    void consumerWithAnUnexportedKey_failsNamingTheKeysAvailable() {
        try (Loopback loopback = new Loopback()) {
            Exporter<Tagged> a1 = export(loopback, 0, "a1", "group=a&version=1");
            int port = a1.getInvoker().getUrl().getPort();

            assertThatThrownBy(() -> tag(loopback, port, "group=a&version=2"))
                    .isInstanceOf(RpcException.class)
                    .hasMessageContaining("service: a/" + Tagged.class.getName() + ":2")
                    .hasMessageContaining("[a/" + Tagged.class.getName() + ":1]");
            assertThatThrownBy(() -> tag(loopback, port, ""))
                    .isInstanceOf(RpcException.class)
                    .hasMessageContaining("service: " + Tagged.class.getName() + " (expected");
        }
    }

    @Test
    void sameKeyTwiceOnOnePort_isRejected_otherVersionIsNot() {
        try (Loopback loopback = new Loopback()) {
            Exporter<Tagged> first = export(loopback, 0, "first", "group=a&version=1");
            int port = first.getInvoker().getUrl().getPort();

            assertThatThrownBy(() -> export(loopback, port, "again", "version=1&group=a"))
                    .isInstanceOf(RpcException.class)
                    .hasMessageContaining("export: a/" + Tagged.class.getName() + ":1 on port " + port);
            assertThat(tag(loopback, port, "group=a&version=1")).isEqualTo("first!");
        }
    }

    @Test
    void unexportingOneKey_leavesTheOtherKeysOfTheInterfaceServing() throws Exception {
        try (Loopback loopback = new Loopback()) {
            Exporter<Tagged> v1 = export(loopback, 0, "v1", "version=1");
            int port = v1.getInvoker().getUrl().getPort();
            export(loopback, port, "v2", "version=2");
            Invoker<Tagged> toV1 = loopback.refer(Tagged.class, port, "version=1");
            Invoker<Tagged> toV2 = loopback.refer(Tagged.class, port, "version=2");
            assertThat(Loopback.proxy(Tagged.class, toV1).tag("?")).isEqualTo("v1?");

            v1.unexport();

            awaitTrue(() -> !toV1.isAvailable());
            assertThat(toV2.isAvailable()).isTrue();
            assertThatThrownBy(() -> Loopback.proxy(Tagged.class, toV1).tag("?"))
                    .isInstanceOf(RpcException.class)
                    .satisfies(e -> assertThat(((RpcException) e).getCode()).isEqualTo(RpcException.NOT_PROCESSED));
            assertThat(Loopback.proxy(Tagged.class, toV2).tag("?")).isEqualTo("v2?");
        }
    }

    /**
     * A key unexported and exported again on a port that kept serving other keys: consumers that
     * were told it went away use it again over the connection they already have, both their old
     * invoker and one referred afresh (as a registry directory makes when the URL comes back).
     */
    @Test
    void keyExportedAgainOnTheSamePort_isUsedAgainOverTheOpenConnection() throws Exception {
        try (Loopback provider = new Loopback(); Loopback consumer = new Loopback()) {
            Exporter<Tagged> v1 = export(provider, 0, "v1", "version=1");
            int port = v1.getInvoker().getUrl().getPort();
            export(provider, port, "v2", "version=2");
            Invoker<Tagged> toV1 = consumer.refer(Tagged.class, port, "version=1");
            Invoker<Tagged> toV2 = consumer.refer(Tagged.class, port, "version=2");
            assertThat(Loopback.proxy(Tagged.class, toV1).tag("?")).isEqualTo("v1?");
            v1.unexport();
            awaitTrue(() -> !toV1.isAvailable());

            export(provider, port, "v1 again", "version=1");

            awaitTrue(toV1::isAvailable);
            assertThat(Loopback.proxy(Tagged.class, toV1).tag("?")).isEqualTo("v1 again?");
            assertThat(Loopback.proxy(Tagged.class, consumer.refer(Tagged.class, port, "version=1")).tag("!"))
                    .isEqualTo("v1 again!");
            assertThat(Loopback.proxy(Tagged.class, toV2).tag("?")).isEqualTo("v2?");
        }
    }

    /**
     * One key unexported and exported again, over and over, on a port that keeps serving another,
     * while callers use it over one connection: each call is answered or refused NOT_PROCESSED,
     * never failed otherwise, and every export is used again.
     */
    @Test
    void keyUnexportedAndExportedAgainUnderLoad_callsAreAnsweredOrNotProcessed() throws Exception {
        try (Loopback provider = new Loopback(); Loopback consumer = new Loopback()) {
            int port = export(provider, 0, "v2", "version=2").getInvoker().getUrl().getPort();
            Exporter<Tagged> v1 = export(provider, port, "v1", "version=1");
            Tagged toV1 = Loopback.proxy(Tagged.class, consumer.refer(Tagged.class, port, "version=1&timeout=5000"));
            assertThat(toV1.tag("?")).isEqualTo("v1?");
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger answered = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            Map<String, Integer> otherFailures = new ConcurrentHashMap<>();
            List<CompletableFuture<Void>> callers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                callers.add(CompletableFuture.runAsync(() -> {
                    while (!stop.get()) {
                        try {
                            assertThat(toV1.tag("!")).startsWith("v1");
                            answered.incrementAndGet();
                        } catch (RpcException e) {
                            if (e.isNotProcessed()) {
                                refused.incrementAndGet();
                                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // refused at once: do not spin
                            } else {
                                otherFailures.merge(e.getCode() + ": " + e.getMessage(), 1, Integer::sum);
                            }
                        }
                    }
                }));
            }
            for (int round = 0; round < 20; round++) {
                v1.unexport();
                v1 = export(provider, port, "v1 round " + round, "version=1");
                int before = answered.get();
                awaitTrue(() -> answered.get() > before + 20);
            }
            stop.set(true);
            CompletableFuture.allOf(callers.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.SECONDS);
            assertThat(otherFailures).isEmpty();
            assertThat(toV1.tag("?")).isEqualTo("v1 round 19?");
            System.out.printf("re-export under load: %d answered, %d refused NOT_PROCESSED%n", answered.get(), refused.get());
        }
    }

    private static String tag(Loopback loopback, int port, String params) {
        return Loopback.proxy(Tagged.class, loopback.refer(Tagged.class, port, params)).tag("!");
    }
}
