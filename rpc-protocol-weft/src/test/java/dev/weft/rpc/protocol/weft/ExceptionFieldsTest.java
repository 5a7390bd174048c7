package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.protocol.Exporter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A declared exception whose one-String constructor takes a SKU, not a message, arrives with its
 * own field values, bound to the consumer's declared class.
 */
class ExceptionFieldsTest {

    @Test
    void aDeclaredException_crossesWithItsOwnFields() {
        try (Loopback loopback = new Loopback()) {
            Exporter<Values> exporter = loopback.export(Values.class, new ValuesImpl(), "");
            Values values = Loopback.proxy(Values.class, loopback.refer(Values.class, exporter, "timeout=5000"));

            assertThatThrownBy(() -> values.buy("sku-42", 3))
                    .isInstanceOfSatisfying(Values.OutOfStock.class, e -> {
                        org.assertj.core.api.Assertions.assertThat(e.sku()).isEqualTo("sku-42");
                        org.assertj.core.api.Assertions.assertThat(e.left()).isEqualTo(3);
                    })
                    // the message goes through the class's one-String constructor, the only way to set it
                    .hasMessage("no item only 3 of sku-42");
        }
    }
}
