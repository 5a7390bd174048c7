package dev.weft.rpc.protocol.weft;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;

/** The provider side of {@link Values}: echoes; counts the calls that ran. */
final class ValuesImpl implements Values {

    final AtomicInteger calls = new AtomicInteger();

    @Override
    public Instant instant(Instant value) {
        return value;
    }

    @Override
    public LocalDate date(LocalDate value) {
        return value;
    }

    @Override
    public Duration duration(Duration value) {
        return value;
    }

    @Override
    public Optional<String> optional(Optional<String> value) {
        return value;
    }

    @Override
    public OptionalInt optionalInt(OptionalInt value) {
        return value;
    }

    @Override
    public BigDecimal decimal(BigDecimal value) {
        calls.incrementAndGet();
        return value;
    }

    @Override
    public Color color(Color value) {
        return value;
    }

    @Override
    public byte[] bytes(byte[] value) {
        return value;
    }

    @Override
    public Order order(Order value) {
        return value;
    }

    @Override
    public List<Map<String, Optional<Instant>>> nested(List<Map<String, Optional<Instant>>> value) {
        return value;
    }

    @Override
    public int add(int a, int b) {
        calls.incrementAndGet();
        return a + b;
    }

    @Override
    public Shapes.Point move(Shapes.Point point) {
        calls.incrementAndGet();
        return new Shapes.Point(point.x() + 1, point.y());
    }

    @Override
    public String buy(String sku, int left) throws OutOfStock {
        throw new OutOfStock(sku, left);
    }

    @Override
    public String big(int mebibytes) {
        return "b".repeat(mebibytes * 1024 * 1024);
    }

    @Override
    public Bomb bomb() {
        return new Bomb();
    }

    @Override
    public String badException() {
        throw new IllegalStateException() {
            private static final long serialVersionUID = 1L;

            @Override
            public String getMessage() {
                throw new StackOverflowError("message");
            }
        };
    }

    @Override
    public String thread() {
        return Thread.currentThread().getName();
    }
}
