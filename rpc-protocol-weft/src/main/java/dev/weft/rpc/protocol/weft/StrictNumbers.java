package dev.weft.rpc.protocol.weft;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.module.SimpleModule;

import java.io.IOException;
import java.math.BigDecimal;

/**
 * {@code BigDecimal} with a bounded exponent. The digit limit does not cover exponents:
 * {@code 1e999999999} is 11 characters, and a service that calls {@code toBigInteger()} or
 * {@code toPlainString()} on it allocates a billion digits. Refused when the scale's magnitude
 * exceeds {@value #MAX_EXPONENT}. Stateless.
 */
final class StrictNumbers {

    /** The largest {@code |scale|} of a decoded {@code BigDecimal}. */
    static final int MAX_EXPONENT = 1_000;

    private StrictNumbers() {
    }

    static Module module() {
        SimpleModule module = new SimpleModule("weft-strict-numbers");
        module.addDeserializer(BigDecimal.class, new BoundedBigDecimal());
        return module;
    }

    private static final class BoundedBigDecimal extends NumberDeserializers.BigDecimalDeserializer {

        private static final long serialVersionUID = 1L;

        @Override
        public BigDecimal deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            BigDecimal value = super.deserialize(p, ctxt);
            if (value != null && Math.abs((long) value.scale()) > MAX_EXPONENT) {
                return (BigDecimal) ctxt.handleWeirdNumberValue(BigDecimal.class, value,
                        "exponent %d (expected: a BigDecimal whose scale is within +-%d)", -(long) value.scale(),
                        MAX_EXPONENT);
            }
            return value;
        }
    }
}
