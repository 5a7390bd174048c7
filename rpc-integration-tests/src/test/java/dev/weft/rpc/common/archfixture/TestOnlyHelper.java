package dev.weft.rpc.common.archfixture;

/** Architecture-rule fixture: stands for a test-only class (not imported as production code). */
public final class TestOnlyHelper {
    private TestOnlyHelper() {
    }

    public static int value() {
        return 1;
    }
}
