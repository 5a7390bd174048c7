package dev.weft.rpc.common.archfixture;

import org.junit.jupiter.api.Assertions;

/** Architecture-rule fixture: everything published code must not do. */
public class BadHabits {

    public void printsToStdout() {
        System.out.println("hello");
    }

    public void printsStackTrace(Exception e) {
        e.printStackTrace();
    }

    public void usesJul() {
        java.util.logging.Logger.getLogger("x").info("hello");
    }

    public void usesBackend() {
        org.slf4j.simple.SimpleLoggerFactory factory = new org.slf4j.simple.SimpleLoggerFactory();
        factory.getLogger("x");
    }

    public void usesJunit() {
        Assertions.fail("never");
    }

    public System.Logger usesPlatformLogger() {
        return System.getLogger("x");
    }

    public int usesTestOnlyHelper() {
        return TestOnlyHelper.value();
    }
}
