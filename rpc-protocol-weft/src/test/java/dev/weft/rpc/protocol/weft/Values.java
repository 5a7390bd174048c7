package dev.weft.rpc.protocol.weft;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** The types users pass on day one, each echoed back by {@link ValuesImpl}; and answers that cannot be encoded. */
public interface Values {

    enum Color { RED, GREEN }

    record Order(String sku, Color color, List<Instant> times, Map<String, BigDecimal> prices, byte[] blob,
                 Optional<LocalDate> due) {
    }

    /** A declared exception whose one-String constructor takes a SKU, not a message. */
    class OutOfStock extends Exception {
        private static final long serialVersionUID = 1L;
        private final String sku;
        private final int left;

        public OutOfStock(String sku) {
            super("no item " + sku);
            this.sku = sku;
            this.left = 0;
        }

        public OutOfStock(String sku, int left) {
            super("only " + left + " of " + sku);
            this.sku = sku;
            this.left = left;
        }

        public String sku() {
            return sku;
        }

        public int left() {
            return left;
        }
    }

    Instant instant(Instant value);

    LocalDate date(LocalDate value);

    Duration duration(Duration value);

    Optional<String> optional(Optional<String> value);

    OptionalInt optionalInt(OptionalInt value);

    BigDecimal decimal(BigDecimal value);

    Color color(Color value);

    byte[] bytes(byte[] value);

    Order order(Order value);

    List<Map<String, Optional<Instant>>> nested(List<Map<String, Optional<Instant>>> value);

    int add(int a, int b);

    Shapes.Point move(Shapes.Point point);

    /** Throws {@link OutOfStock} for {@code sku} with {@code left} items left. */
    String buy(String sku, int left) throws OutOfStock;

    /** A string of {@code mebibytes} MiB: over a small {@code payload}. */
    String big(int mebibytes);

    /** A value whose getter throws {@link StackOverflowError} while it is encoded. */
    Bomb bomb();

    /** Throws an exception whose {@code getMessage()} throws {@link StackOverflowError}. */
    String badException();

    /** The name of the thread that runs it. */
    String thread();

    /** Serialized by a getter that overflows the stack. */
    final class Bomb {
        public String getValue() {
            throw new StackOverflowError("bomb");
        }
    }
}
