package dev.weft.rpc.benchmarks;

/** Set-up checks: a benchmark measures nothing if its fixture answers wrongly, so fail early. */
final class Checks {
    private Checks() {
    }

    /** Calls {@code greeter} once and returns it if it answers like {@link GreeterImpl}. */
    static Greeter greeter(Greeter greeter) {
        String answer = greeter.greet("check");
        if (!"Hello, check".equals(answer)) {
            throw new IllegalStateException("greeter answered " + answer + " (expected: Hello, check)");
        }
        return greeter;
    }
}
