package dev.weft.rpc.it.e2e;

import dev.weft.rpc.cluster.StaticDirectory;
import dev.weft.rpc.loadbalance.LoadBalance;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The third-party balancer {@code localfirst} (jar {@code dev.weft.examples:rpc-example-extension},
 * built against the BOM like a user's jar) joins the built-in ones just by being on the class path
 * and is picked by URL, interface-wide or per method.
 */
class ThirdPartyBalancerTest {

    @Test
    void loader_listsTheThirdPartyBalancerBesideTheBuiltInOnes() {
        try (WeftStack stack = new WeftStack()) {
            assertThat(stack.director.getExtensionLoader(LoadBalance.class).getSupportedExtensions())
                    .containsExactly("consistenthash", "leastactive", "localfirst", "p2c", "random", "roundrobin",
                            "shortestresponse");
        }
    }

    @Test
    void localfirst_prefersProvidersInTheConsumerZone() {
        try (WeftStack stack = new WeftStack()) {
            Greeter greeter = stack.consumer(new StaticDirectory<>(
                    WeftStack.consumerUrl("loadbalance=localfirst&localfirst.zone=eu"),
                    new ArrayList<>(stack.providers("zone=us", "zone=eu", "zone=EU"))));

            for (int i = 0; i < 90; i++) {
                greeter.greet("x");
            }

            assertThat(stack.served).hasSize(90).containsOnly("b", "c").contains("b", "c");
        }
    }

    @Test
    void localfirst_noProviderInTheZone_fallsBackToEveryProvider() {
        try (WeftStack stack = new WeftStack()) {
            Greeter greeter = stack.consumer(new StaticDirectory<>(
                    WeftStack.consumerUrl("loadbalance=localfirst&localfirst.zone=asia"),
                    new ArrayList<>(stack.providers("zone=us", "zone=eu", ""))));

            for (int i = 0; i < 90; i++) {
                greeter.greet("x");
            }

            // 90 uniform draws miss one of three providers with probability < 1e-15.
            assertThat(stack.served).hasSize(90).contains("a", "b", "c");
        }
    }

    @Test
    void localfirst_asMethodLevelKey_appliesToThatMethodOnly() {
        try (WeftStack stack = new WeftStack()) {
            Greeter greeter = stack.consumer(new StaticDirectory<>(
                    WeftStack.consumerUrl("loadbalance=roundrobin&greet.loadbalance=localfirst&localfirst.zone=eu"),
                    new ArrayList<>(stack.providers("zone=us", "zone=eu", "zone=us"))));

            for (int i = 0; i < 6; i++) {
                greeter.greet("x");
            }
            List<String> greets = new ArrayList<>(stack.served);
            stack.served.clear();
            for (int i = 0; i < 6; i++) {
                greeter.add(i, 1);
            }

            assertThat(greets).containsOnly("b");
            assertThat(stack.served).containsExactly("a", "b", "c", "a", "b", "c");
        }
    }
}
