package dev.weft.rpc.proxy;

/** A checked exception declared by {@link SampleService#load}. */
public class CheckedFailure extends Exception {

    public CheckedFailure(String message) {
        super(message);
    }
}
