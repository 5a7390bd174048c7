package dev.weft.rpc.proxy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The implementation used by the round-trip tests; records calls of {@link #record}. */
public class SampleServiceImpl implements SampleService {

    private final List<String> entries = Collections.synchronizedList(new ArrayList<>());

    @Override
    public int add(int a, int b) {
        return a + b;
    }

    @Override
    public long addLong(long a, long b) {
        return a + b;
    }

    @Override
    public double half(double value) {
        return value / 2;
    }

    @Override
    public float scale(float value, float factor) {
        return value * factor;
    }

    @Override
    public boolean negate(boolean value) {
        return !value;
    }

    @Override
    public char nextChar(char value) {
        return (char) (value + 1);
    }

    @Override
    public byte nextByte(byte value) {
        return (byte) (value + 1);
    }

    @Override
    public short nextShort(short value) {
        return (short) (value + 1);
    }

    @Override
    public void record(String entry) {
        entries.add(entry);
    }

    @Override
    public List<String> recorded() {
        return List.copyOf(entries);
    }

    @Override
    public int[] reverse(int[] values) {
        int[] reversed = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            reversed[i] = values[values.length - 1 - i];
        }
        return reversed;
    }

    @Override
    public String[][] grid(int rows, int columns) {
        String[][] grid = new String[rows][columns];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < columns; c++) {
                grid[r][c] = r + "," + c;
            }
        }
        return grid;
    }

    @Override
    public List<String> names(Map<String, Integer> ages) {
        return List.copyOf(new TreeMap<>(ages).keySet());
    }

    @Override
    public <T extends Comparable<T>> T max(T a, T b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    @Override
    public int sum(int... values) {
        int total = 0;
        for (int value : values) {
            total += value;
        }
        return total;
    }

    @Override
    public String describe(int value) {
        return "int " + value;
    }

    @Override
    public String describe(Integer value) {
        return "Integer " + value;
    }

    @Override
    public String describe(String value) {
        return "String " + value;
    }

    @Override
    public String describe(Object value) {
        return "Object " + value;
    }

    @Override
    public String describe(long[] values) {
        return "long[] " + values.length;
    }

    @Override
    public String mixed(long a, int b, double c, String d, boolean e, char f, byte g, short h, float i) {
        return a + "|" + b + "|" + c + "|" + d + "|" + e + "|" + f + "|" + g + "|" + h + "|" + i;
    }

    @Override
    public String greet(String name) {
        return "hi " + name;
    }

    @Override
    public String load(String key) throws IOException, CheckedFailure {
        if (key.equals("missing")) {
            throw new CheckedFailure("no " + key);
        }
        if (key.equals("io")) {
            throw new IOException("disk");
        }
        return "value of " + key;
    }

    @Override
    public String risky(String kind) {
        switch (kind) {
            case "state":
                throw new IllegalStateException("bad state");
            case "error":
                throw new AssertionError("broken");
            case "checked":
                throw Sneaky.<RuntimeException>sneakyThrow(new Exception("undeclared"));
            default:
                return "fine " + kind;
        }
    }

    /** Throws a checked exception from a method that does not declare it, as other JVM languages can. */
    static final class Sneaky {
        private Sneaky() {
        }

        @SuppressWarnings("unchecked")
        static <E extends Throwable> E sneakyThrow(Throwable t) throws E {
            throw (E) t;
        }
    }
}
