package dev.weft.rpc.common.archfixture;

import com.google.common.base.Preconditions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Architecture-rule fixture: uses only what rpc-common may use (guava, slf4j-api, the JDK). */
public class GoodCitizen {
    private static final Logger LOG = LoggerFactory.getLogger(GoodCitizen.class);

    public int check(int retries) {
        Preconditions.checkArgument(retries >= 0, "retries: %s (expected: >= 0)", retries);
        LOG.atDebug().log("retries {}", retries);
        return retries;
    }
}
