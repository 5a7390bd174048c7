package dev.weft.rpc.protocol.weft;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** Every argument and return shape the tests send across. */
public interface Shapes {

    record Point(int x, int y) {
    }

    record Box<T>(T value, List<T> more) {
    }

    /** A declared checked exception. */
    class PointException extends Exception {
        private static final long serialVersionUID = 1L;

        public PointException(String message) {
            super(message);
        }
    }

    int add(int a, int b);

    long twice(long value);

    boolean not(boolean value);

    double half(double value);

    char next(char value);

    String echo(String value);

    List<Point> points(List<Point> points);

    Map<String, List<Integer>> index(Map<String, List<Integer>> index);

    Set<String> set(Set<String> values);

    Point move(Point point, int dx);

    Box<Point> box(Box<Point> box);

    int[] reverse(int[] values);

    void fire(String value);

    Object any(Object value);

    /** Throws according to {@code kind}: declared, iae, canary, custom. */
    String fail(String kind) throws PointException;

    String slow(long millis);

    /** {@code value} {@code times} over: a small request with a large answer. */
    String repeat(String value, int times);
}
