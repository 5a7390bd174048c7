package dev.weft.rpc.benchmarks;

/** The {@link Workload#ARGUMENT_COUNT} call arguments, as an array the benchmarks index into. */
public final class Arguments {
    private Arguments() {
    }

    /** A fresh array of all call arguments. */
    public static String[] all() {
        String[] arguments = new String[Workload.ARGUMENT_COUNT];
        for (int i = 0; i < arguments.length; i++) {
            arguments[i] = Workload.argument(i);
        }
        return arguments;
    }
}
