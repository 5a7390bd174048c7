package dev.weft.rpc.protocol.weft;

/**
 * A class no test names in code: only its name travels over the wire. Initialising it flips
 * {@link CanaryFlag#INITIALISED}, which the security tests assert never happens.
 */
public class Canary extends RuntimeException {

    private static final long serialVersionUID = 1L;

    static {
        CanaryFlag.INITIALISED.set(true);
    }

    public Canary() {
        super("canary");
    }

    public Canary(String message) {
        super(message);
    }
}
