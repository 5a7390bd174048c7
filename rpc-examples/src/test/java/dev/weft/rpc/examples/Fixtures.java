package dev.weft.rpc.examples;

import java.util.List;

/** Fixed results for the output writers' tests. */
final class Fixtures {

    private Fixtures() {
    }

    static ScenarioResult failoverRandom() {
        return new ScenarioResult("failover + random", "cluster=failover&loadbalance=random", 1000, 1000, 0, 0, 0,
                1_230_000, 11_400_000, 42, 2_000_000_000L,
                List.of(new ScenarioResult.ProviderTally("a", 200, 0),
                        new ScenarioResult.ProviderTally("b", 400, 0),
                        new ScenarioResult.ProviderTally("d", 242, 42),
                        new ScenarioResult.ProviderTally("e", 0, 0)),
                null);
    }

    static ScenarioResult failfastWithFailures() {
        return new ScenarioResult("failfast <&>", "cluster=failfast&x=\"q\"", 1000, 950, 0, 0, 50,
                850_000, 1_500_000_000L, 0, 1_000_000_000L,
                List.of(new ScenarioResult.ProviderTally("a", 500, 0),
                        new ScenarioResult.ProviderTally("d", 500, 50)),
                new ScenarioResult.TopError("RpcException(NETWORK)", "simulated <network> failure & more", 50));
    }
}
