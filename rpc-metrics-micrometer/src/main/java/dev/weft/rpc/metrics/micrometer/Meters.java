package dev.weft.rpc.metrics.micrometer;

/** The meter and tag names of this module (docs/observability.md describes each). */
final class Meters {

    static final String CLIENT_CALL_DURATION = "rpc.client.call.duration";
    static final String CLIENT_ATTEMPT_DURATION = "rpc.client.attempt.duration";
    static final String SERVER_CALL_DURATION = "rpc.server.call.duration";
    static final String CLIENT_RETRIES = "weft.client.retries";
    static final String CLIENT_HEDGES = "weft.client.hedges";
    static final String CLIENT_HEDGES_WON = "weft.client.hedges.won";
    static final String CLIENT_BUDGET_EXHAUSTED = "weft.client.budget.exhausted";
    static final String CLIENT_EJECTIONS = "weft.client.ejections";
    static final String CLIENT_EJECTED = "weft.client.ejected";
    static final String SERVER_BUSY = "weft.server.busy";
    static final String REGISTRY_PROVIDERS = "weft.registry.providers";
    static final String REGISTRY_RULES = "weft.registry.rules";
    static final String REGISTRY_RULES_REJECTED = "weft.registry.rules.rejected";

    static final String SYSTEM = "rpc.system";
    static final String SYSTEM_WEFT = "weft";
    static final String SERVICE = "rpc.service";
    static final String METHOD = "rpc.method";
    static final String ERROR_TYPE = "error.type";
    static final String SERVER_ADDRESS = "server.address";
    static final String OUTCOME = "outcome";
    /** The method tag of a call to a method the service interface does not declare. */
    static final String OTHER_METHOD = "other";

    private Meters() {
    }
}
