package dev.weft.rpc.protocol.weft;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/** The provider side of {@link Shapes}; counts the calls that actually ran. */
final class ShapesImpl implements Shapes {

    final AtomicInteger calls = new AtomicInteger();
    final AtomicInteger slowCalls = new AtomicInteger();
    /** The most {@code slow} calls that were running at the same time. */
    final AtomicInteger mostSlowAtOnce = new AtomicInteger();
    private final AtomicInteger slowRunning = new AtomicInteger();
    final AtomicInteger fired = new AtomicInteger();
    final AtomicInteger repeats = new AtomicInteger();
    /** {@code echo} calls whose argument starts with {@value #MARK}: calls a test tells apart. */
    final AtomicInteger markedEchoes = new AtomicInteger();
    static final String MARK = "marked-";

    @Override
    public int add(int a, int b) {
        calls.incrementAndGet();
        return a + b;
    }

    @Override
    public long twice(long value) {
        return 2 * value;
    }

    @Override
    public boolean not(boolean value) {
        return !value;
    }

    @Override
    public double half(double value) {
        return value / 2;
    }

    @Override
    public char next(char value) {
        return (char) (value + 1);
    }

    @Override
    public String echo(String value) {
        calls.incrementAndGet();
        if (value != null && value.startsWith(MARK)) {
            markedEchoes.incrementAndGet();
        }
        return value;
    }

    @Override
    public List<Point> points(List<Point> points) {
        List<Point> copy = new ArrayList<>(points);
        Collections.reverse(copy);
        return copy;
    }

    @Override
    public Map<String, List<Integer>> index(Map<String, List<Integer>> index) {
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        index.forEach((k, v) -> out.put(k + "!", v));
        return out;
    }

    @Override
    public Set<String> set(Set<String> values) {
        Set<String> out = new LinkedHashSet<>(values);
        out.add("extra");
        return out;
    }

    @Override
    public Point move(Point point, int dx) {
        return new Point(point.x() + dx, point.y());
    }

    @Override
    public Box<Point> box(Box<Point> box) {
        return new Box<>(box.more().get(0), List.of(box.value()));
    }

    @Override
    public int[] reverse(int[] values) {
        int[] out = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[values.length - 1 - i];
        }
        return out;
    }

    @Override
    public void fire(String value) {
        fired.incrementAndGet();
    }

    @Override
    public Object any(Object value) {
        return value == null ? null : value.getClass().getName();
    }

    @Override
    public String fail(String kind) throws PointException {
        switch (kind) {
            case "declared" -> throw new PointException("bad point");
            case "iae" -> throw new IllegalArgumentException("bad argument");
            case "custom" -> throw new CustomProviderException("provider only");
            case "declared-subclass" -> throw new ProviderPointException("bad point, provider detail");
            default -> throw new IllegalStateException("unknown kind " + kind);
        }
    }

    @Override
    public String repeat(String value, int times) {
        repeats.incrementAndGet();
        return value.repeat(times);
    }

    @Override
    public String slow(long millis) {
        slowCalls.incrementAndGet();
        mostSlowAtOnce.accumulateAndGet(slowRunning.incrementAndGet(), Math::max);
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } finally {
            slowRunning.decrementAndGet();
        }
        return "slept " + millis;
    }

    /** An exception class the consumer does not declare. */
    /** A subclass of a declared exception that only the provider knows. */
    static final class ProviderPointException extends Shapes.PointException {
        private static final long serialVersionUID = 1L;

        ProviderPointException(String message) {
            super(message);
        }
    }

    static final class CustomProviderException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CustomProviderException(String message) {
            super(message);
        }
    }
}
