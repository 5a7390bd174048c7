package dev.weft.rpc.proxy;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/** A service interface exercising every shape of method the proxies must support. */
public interface SampleService {

    int add(int a, int b);

    long addLong(long a, long b);

    double half(double value);

    float scale(float value, float factor);

    boolean negate(boolean value);

    char nextChar(char value);

    byte nextByte(byte value);

    short nextShort(short value);

    void record(String entry);

    List<String> recorded();

    int[] reverse(int[] values);

    String[][] grid(int rows, int columns);

    List<String> names(Map<String, Integer> ages);

    <T extends Comparable<T>> T max(T a, T b);

    int sum(int... values);

    String describe(int value);

    String describe(Integer value);

    String describe(String value);

    String describe(Object value);

    String describe(long[] values);

    /** Every primitive kind after a two-slot one, to exercise local-variable slot accounting. */
    String mixed(long a, int b, double c, String d, boolean e, char f, byte g, short h, float i);

    default String greet(String name) {
        return "hello " + name;
    }

    /** Throws {@link CheckedFailure} for "missing", {@link IOException} for "io". */
    String load(String key) throws IOException, CheckedFailure;

    /** Throws for "state" (IllegalStateException), "error" (AssertionError), "checked" (undeclared Exception). */
    String risky(String kind);
}
