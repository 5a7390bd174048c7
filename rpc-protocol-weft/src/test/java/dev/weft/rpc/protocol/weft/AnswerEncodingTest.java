package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Exporter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An answer that cannot be encoded — over {@code payload}, a getter or a {@code getMessage()} that
 * throws {@link StackOverflowError} — reaches its caller as a SERIALIZATION error at once; the one
 * business thread carries on and every buffer is released (Netty's leak detector runs at paranoid
 * in this module's tests).
 */
class AnswerEncodingTest {

    @AfterAll
    static void noLeaks() {
        LeakCounter.assertNoLeaks();
    }

    @Test
    void answersThatCannotBeEncoded_failTheirCallsClearly_andTheBusinessThreadCarriesOn() {
        try (Loopback loopback = new Loopback()) {
            Exporter<Values> exporter = loopback.export(Values.class, new ValuesImpl(), "threads=1&payload=1048576");
            Values values = Loopback.proxy(Values.class, loopback.refer(Values.class, exporter, "timeout=10000&payload=1048576"));
            String thread = values.thread();

            for (int i = 0; i < 4; i++) {
                assertThatThrownBy(() -> values.big(16))
                        .isInstanceOfSatisfying(RpcException.class,
                                e -> assertThat(e.getCode()).isEqualTo(RpcException.SERIALIZATION_EXCEPTION))
                        .hasMessageContaining("BAD_RESPONSE")
                        .hasMessageContaining("the encoded result exceeds payload 1048576 bytes");
                assertThatThrownBy(values::bomb)
                        .isInstanceOfSatisfying(RpcException.class,
                                e -> assertThat(e.getCode()).isEqualTo(RpcException.SERIALIZATION_EXCEPTION))
                        .hasMessageContaining("the result of bomb could not be encoded")
                        .hasMessageContaining("StackOverflowError");
                assertThatThrownBy(values::badException)
                        .isInstanceOfSatisfying(RpcException.class,
                                e -> assertThat(e.getCode()).isEqualTo(RpcException.SERIALIZATION_EXCEPTION))
                        .hasMessageContaining("the exception of badException could not be encoded");
            }

            assertThat(values.thread()).as("the one business thread survived").isEqualTo(thread);
            assertThat(values.add(2, 3)).isEqualTo(5);
        }
    }
}
