package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The types users pass on day one round-trip through the {@code json} serialization over a real
 * connection; a type it cannot carry is refused at export and at refer, naming method and type.
 */
class DayOneTypesTest {

    private static Loopback loopback;
    private static Values values;

    @BeforeAll
    static void setUp() {
        loopback = new Loopback();
        Exporter<Values> exporter = loopback.export(Values.class, new ValuesImpl(), "");
        values = Loopback.proxy(Values.class, loopback.refer(Values.class, exporter, "timeout=5000"));
    }

    @AfterAll
    static void tearDown() {
        loopback.close();
        LeakCounter.assertNoLeaks();
    }

    @Test
    void javaTimeOptionalsDecimalsEnumsRecordsCollectionsAndBytes_roundTrip() {
        Instant now = Instant.parse("2026-12-05T10:15:30.123456789Z");
        assertThat(values.instant(now)).isEqualTo(now);
        assertThat(values.date(LocalDate.of(2026, 2, 28))).isEqualTo(LocalDate.of(2026, 2, 28));
        assertThat(values.duration(Duration.ofMillis(1_500))).isEqualTo(Duration.ofMillis(1_500));
        assertThat(values.optional(Optional.of("x"))).contains("x");
        assertThat(values.optional(Optional.empty())).isEmpty();
        assertThat(values.optionalInt(OptionalInt.of(7))).hasValue(7);
        assertThat(values.optionalInt(OptionalInt.empty())).isEmpty();
        assertThat(values.decimal(new BigDecimal("12345678901234567890.000000000001")))
                .isEqualTo(new BigDecimal("12345678901234567890.000000000001"));
        assertThat(values.color(Values.Color.GREEN)).isEqualTo(Values.Color.GREEN);
        assertThat(values.bytes(new byte[] {0, -1, 42})).containsExactly(0, -1, 42);

        Values.Order order = new Values.Order("sku-1", Values.Color.RED, List.of(now, now.plusSeconds(1)),
                Map.of("eur", new BigDecimal("9.99")), new byte[] {1, 2}, Optional.of(LocalDate.of(2027, 1, 1)));
        Values.Order back = values.order(order);
        assertThat(back).usingRecursiveComparison().isEqualTo(order);

        List<Map<String, Optional<Instant>>> nested = List.of(Map.of("a", Optional.of(now), "b", Optional.empty()));
        assertThat(values.nested(nested)).isEqualTo(nested);
    }

    /** Neither a thread nor a bare interface can be carried. */
    public interface Unsupported {
        String ok(String value);

        String start(Runnable task);
    }

    @Test
    void aTypeTheSerializationCannotCarry_isRefusedAtExportAndAtRefer_namingMethodAndType() {
        URL url = URL.valueOf("weft://127.0.0.1:0/" + Unsupported.class.getName());
        Unsupported impl = new Unsupported() {
            @Override
            public String ok(String value) {
                return value;
            }

            @Override
            public String start(Runnable task) {
                return "started";
            }
        };
        assertThatThrownBy(() -> loopback.protocol.export(Loopback.provider(Unsupported.class, impl, url)))
                .isInstanceOf(RpcException.class)
                .hasMessageContaining("export: " + Unsupported.class.getName() + "#start(java.lang.Runnable) parameter 0"
                        + " java.lang.Runnable: the json serialization cannot carry it")
                .hasMessageContaining("abstract, with no class named to create");
        assertThatThrownBy(() -> loopback.protocol.refer(Unsupported.class, url.withPort(1)))
                .isInstanceOf(RpcException.class)
                .hasMessageContaining("refer: " + Unsupported.class.getName() + "#start(java.lang.Runnable) parameter 0");
    }
}
