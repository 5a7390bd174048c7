package dev.weft.rpc.registry;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.proxy.ProxyFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Override rules from a registry through the whole consumer stack: cluster, rpc-mock's wrapper, proxy. */
class LiveOverrideTest {

    private final Fixture fixture = new Fixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    private DemoService consumer(RegistryDirectory<DemoService> directory) {
        Cluster cluster = fixture.director.getExtensionLoader(Cluster.class).getAdaptiveExtension();
        ProxyFactory proxies = fixture.director.getExtensionLoader(ProxyFactory.class).getAdaptiveExtension();
        return proxies.getProxy(cluster.join(directory));
    }

    @Test
    void mockOverride_forcesOneMethodLive_andDeletingItRestoresRealCalls() {
        fixture.provider("10.0.0.1:1", "");
        fixture.provider("10.0.0.2:2", "");
        DemoService service = consumer(fixture.directory());
        assertThat(service.sayHello("x")).matches("10\\.0\\.0\\.[12]:[12]");

        URL rule = fixture.override("0.0.0.0", "sayHello.mock=force:return degraded");
        assertThat(service.sayHello("x")).isEqualTo("degraded");
        assertThat(service.sayBye("x")).matches("10\\.0\\.0\\.[12]:[12]");

        fixture.registry.unregister(rule);
        assertThat(service.sayHello("x")).matches("10\\.0\\.0\\.[12]:[12]");
    }

    @Test
    void hundredOverrideFlipsUnderLoad_failNoCall_andOpenNoConnection() throws Exception {
        fixture.provider("10.0.0.1:1", "");
        fixture.provider("10.0.0.2:2", "");
        fixture.provider("10.0.0.3:3", "");
        RegistryDirectory<DemoService> directory = fixture.directory(Fixture.CONSUMER + "&loadbalance=roundrobin");
        DemoService service = consumer(directory);
        int callers = 4;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong calls = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(callers);
        try {
            for (int i = 0; i < callers; i++) {
                pool.execute(() -> {
                    try {
                        while (running.get()) {
                            String answer = service.sayHello("x");
                            if (!answer.matches("10\\.0\\.0\\.[123]:[123]") && !answer.equals("degraded")) {
                                failures.add(new AssertionError("unexpected answer " + answer));
                            }
                            calls.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    } finally {
                        done.countDown();
                    }
                });
            }
            String[] payloads = {"weight=300", "timeout=50", "loadbalance=random", "sayHello.mock=force:return degraded",
                    "retries=0"};
            for (int flip = 0; flip < 100; flip++) {
                URL rule = fixture.override("0.0.0.0", payloads[flip % payloads.length]);
                fixture.registry.unregister(rule);
            }
            running.set(false);
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            running.set(false);
            pool.shutdown();
        }

        assertThat(failures).isEmpty();
        assertThat(calls.get()).isPositive();
        assertThat(fixture.protocol.referred.get()).isEqualTo(3);
        assertThat(fixture.protocol.destroyed()).isZero();
        assertThat(directory.getUrl()).isEqualTo(directory.getConsumerUrl());
    }
}
