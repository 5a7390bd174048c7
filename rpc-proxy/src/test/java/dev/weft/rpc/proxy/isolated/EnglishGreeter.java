package dev.weft.rpc.proxy.isolated;

/** The implementation loaded next to {@link Greeter} by throwaway class loaders. */
public class EnglishGreeter implements Greeter {

    @Override
    public String greet(String name) {
        return "hello " + name;
    }
}
