package dev.weft.rpc.it.e2e;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.registry.Registry;
import dev.weft.rpc.registry.RegistryDirectory;
import dev.weft.rpc.registry.RegistryFactory;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Override rules from a registry, through the whole consumer stack (cluster, rpc-mock, proxy). */
class RegistryOverrideTest {

    private static final String RULE_PREFIX = "override://0.0.0.0/" + WeftStack.SERVICE + "?category=configurators&dynamic=false&";

    private static Registry memoryRegistry(WeftStack stack) {
        return stack.director.getExtensionLoader(RegistryFactory.class).getAdaptiveExtension()
                .getRegistry(URL.valueOf("memory://e2e"));
    }

    private static URL provider(String id, int port) {
        return URL.valueOf("local://10.0.0." + port + ":" + port + "/" + WeftStack.SERVICE + "?id=" + id);
    }

    @Test
    void mockOverride_forcesOneMethodLive_andDeletingItRestoresRealCalls() {
        try (WeftStack stack = new WeftStack(); Registry registry = memoryRegistry(stack)) {
            registry.register(provider("a", 1));
            registry.register(provider("b", 2));
            RegistryDirectory<Greeter> directory = RegistryDirectory
                    .builder(Greeter.class, WeftStack.consumerUrl("cluster=failover"), registry)
                    .director(stack.director).build();
            Greeter greeter = stack.consumer(directory);
            assertThat(greeter.greet("x")).matches("[ab]: hello x");

            URL rule = URL.valueOf(RULE_PREFIX + "greet.mock=force:return degraded");
            registry.register(rule);
            assertThat(greeter.greet("x")).isEqualTo("degraded");
            assertThat(greeter.add(1, 2)).isEqualTo(3);

            registry.unregister(rule);
            assertThat(greeter.greet("x")).matches("[ab]: hello x");
        }
    }

    @Test
    void overrideFlipsUnderLoad_failNoCall_andReferNoProviderAgain() throws Exception {
        try (WeftStack stack = new WeftStack(); Registry registry = memoryRegistry(stack)) {
            LocalProtocol protocol = (LocalProtocol) stack.director.getExtensionLoader(Protocol.class)
                    .getExtension("local", false);
            registry.register(provider("a", 1));
            registry.register(provider("b", 2));
            registry.register(provider("c", 3));
            RegistryDirectory<Greeter> directory = RegistryDirectory
                    .builder(Greeter.class, WeftStack.consumerUrl("cluster=failover&loadbalance=roundrobin"), registry)
                    .director(stack.director).build();
            Greeter greeter = stack.consumer(directory);

            int callers = 4;
            ExecutorService pool = Executors.newFixedThreadPool(callers);
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong calls = new AtomicLong();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            CountDownLatch done = new CountDownLatch(callers);
            for (int i = 0; i < callers; i++) {
                pool.execute(() -> {
                    try {
                        while (running.get()) {
                            String answer = greeter.greet("x");
                            if (!answer.matches("[abc]: hello x") && !answer.equals("degraded")) {
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
            String[] rules = {"weight=300", "timeout=50", "loadbalance=random", "greet.mock=force:return degraded",
                    "retries=0"};
            for (int flip = 0; flip < 100; flip++) {
                URL rule = URL.valueOf(RULE_PREFIX + rules[flip % rules.length]);
                registry.register(rule);
                registry.unregister(rule);
            }
            URL disableOne = URL.valueOf("override://10.0.0.2:2/" + WeftStack.SERVICE
                    + "?category=configurators&dynamic=false&disabled=true");
            registry.register(disableOne);
            registry.unregister(disableOne);
            running.set(false);
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            pool.shutdown();

            assertThat(failures).isEmpty();
            assertThat(calls.get()).isPositive();
            assertThat(protocol.referred.get()).as("only disabling provider b re-refers it").isEqualTo(4);
            assertThat(directory.getUrl()).isEqualTo(directory.getConsumerUrl());
        }
    }
}
