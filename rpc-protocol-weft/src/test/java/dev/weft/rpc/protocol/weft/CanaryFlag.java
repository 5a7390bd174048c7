package dev.weft.rpc.protocol.weft;

import java.util.concurrent.atomic.AtomicBoolean;

/** Set when {@code Canary} is initialised; tests name the canary only as a string. */
final class CanaryFlag {

    static final AtomicBoolean INITIALISED = new AtomicBoolean();

    /** The canary's binary name, built so that no class constant refers to it. */
    static final String CANARY_CLASS = CanaryFlag.class.getPackageName() + ".Canary";

    private CanaryFlag() {
    }
}
