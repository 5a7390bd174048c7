package dev.weft.rpc.it.e2e;

import dev.weft.rpc.cluster.StaticDirectory;
import dev.weft.rpc.common.Invoker;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every cluster strategy x every balancer (the six built-in ones and the third-party
 * {@code localfirst}) x both proxy factories, chosen only by consumer URL keys, against three
 * in-JVM providers {@code a} (weight 5, zone us), {@code b} (weight 1, zone eu) and {@code c}
 * (weight 1, zone us). Each case checks the answers and where the calls went.
 */
class ClusterBalancerMatrixTest {

    private static final List<String> CLUSTERS =
            List.of("failover", "failfast", "failsafe", "failback", "forking", "broadcast", "available");
    private static final List<String> BALANCERS =
            List.of("random", "roundrobin", "leastactive", "shortestresponse", "consistenthash", "p2c", "localfirst");
    private static final List<String> PROXIES = List.of("javassist", "jdk");
    /** Strategies that call exactly one provider per call, chosen by the balancer. */
    private static final Set<String> SINGLE_SELECT = Set.of("failover", "failfast", "failsafe", "failback");
    private static final int CALLS = 140;

    static Stream<Arguments> combinations() {
        List<Arguments> all = new ArrayList<>();
        for (String cluster : CLUSTERS) {
            for (String balancer : BALANCERS) {
                for (String proxy : PROXIES) {
                    all.add(Arguments.of(cluster, balancer, proxy));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "cluster={0} loadbalance={1} proxy={2}")
    @MethodSource("combinations")
    void consumer_builtFromAdaptiveExtensions_callsReachProvidersAsTheUrlSays(String cluster, String balancer, String proxy) {
        try (WeftStack stack = new WeftStack()) {
            List<Invoker<Greeter>> providers = new ArrayList<>(
                    stack.providers("weight=5&zone=us", "weight=1&zone=eu", "weight=1&zone=us"));
            Greeter greeter = stack.consumer(new StaticDirectory<>(WeftStack.consumerUrl(
                    "cluster=" + cluster + "&loadbalance=" + balancer + "&proxy=" + proxy + "&localfirst.zone=eu"),
                    providers));

            assertThat(Proxy.isProxyClass(greeter.getClass())).as("JDK proxy").isEqualTo(proxy.equals("jdk"));

            List<String> answeredBy = new ArrayList<>();
            Map<String, Set<String>> providersByArgument = new HashMap<>();
            for (int i = 0; i < CALLS; i++) {
                String name = "user" + (i % 10);
                String answer = greeter.greet(name);
                assertThat(answer).as("call %d", i).matches("[abc]: hello " + name);
                String provider = answer.substring(0, 1);
                answeredBy.add(provider);
                providersByArgument.computeIfAbsent(name, k -> new java.util.TreeSet<>()).add(provider);
            }
            assertThat(greeter.add(2, 3)).isEqualTo(5);

            checkProviderCalls(cluster, stack, CALLS + 1);
            if (SINGLE_SELECT.contains(cluster)) {
                checkBalancer(balancer, answeredBy, providersByArgument);
            } else if (cluster.equals("available")) {
                assertThat(answeredBy).as("available calls the first available provider").containsOnly("a");
            } else if (cluster.equals("broadcast")) {
                assertThat(answeredBy).as("broadcast returns the last provider's answer").containsOnly("c");
            }
        }
    }

    private static void checkProviderCalls(String cluster, WeftStack stack, int calls) {
        int served = stack.served.size();
        if (cluster.equals("broadcast")) {
            assertThat(served).as("broadcast reaches every provider").isEqualTo(3 * calls);
        } else if (cluster.equals("forking")) {
            assertThat(served).as("forking calls up to forks=2 providers").isBetween(calls, 2 * calls);
        } else {
            assertThat(served).as("one provider call per call").isEqualTo(calls);
        }
    }

    private static void checkBalancer(String balancer, List<String> answeredBy, Map<String, Set<String>> byArgument) {
        switch (balancer) {
            case "roundrobin":
                // Smooth weighted round robin over weights 5, 1, 1 (docs/rpc-loadbalance.md).
                List<String> expected = new ArrayList<>();
                while (expected.size() < answeredBy.size()) {
                    expected.addAll(List.of("a", "a", "b", "a", "c", "a", "a"));
                }
                assertThat(answeredBy).isEqualTo(expected.subList(0, answeredBy.size()));
                break;
            case "consistenthash":
                assertThat(byArgument.values()).as("one provider per argument").allSatisfy(p -> assertThat(p).hasSize(1));
                break;
            case "localfirst":
                assertThat(answeredBy).as("only the provider in the consumer's zone eu").containsOnly("b");
                break;
            case "random":
            case "leastactive":
                // Sequential calls leave every provider idle, so both are weighted random: 140 draws
                // miss a weight-1/7 provider with probability (6/7)^140 < 1e-9.
                assertThat(answeredBy).contains("a", "b", "c");
                assertThat(answeredBy.stream().filter("a"::equals).count()).isGreaterThan(answeredBy.size() / 3);
                break;
            default:
                assertThat(answeredBy).isNotEmpty();
                break;
        }
    }
}
