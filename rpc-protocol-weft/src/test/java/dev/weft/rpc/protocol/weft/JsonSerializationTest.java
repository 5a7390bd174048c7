package dev.weft.rpc.protocol.weft;

import com.google.common.reflect.TypeToken;
import dev.weft.rpc.protocol.Serialization;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.InputStream;
import java.io.IOException;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Consecutive values written and read against declared types, on one stream each way. */
class JsonSerializationTest {

    private final JsonSerialization json = new JsonSerialization();

    private byte[] write(Object[] values, Type[] types) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Serialization.ObjectOutput out = json.serialize(bytes);
        for (int i = 0; i < values.length; i++) {
            out.writeObject(values[i], types[i]);
        }
        out.flush();
        return bytes.toByteArray();
    }

    @Test
    void consecutiveValues_includingNull_readBackInOrder_thenTheInputEnds() throws IOException {
        Type listOfInts = new TypeToken<List<Integer>>() { }.getType();
        Type mapOfLongs = new TypeToken<Map<String, Long>>() { }.getType();
        byte[] bytes = write(new Object[] {"a b", null, List.of(1, 2), Map.of("k", 3L), 7},
                new Type[] {String.class, String.class, listOfInts, mapOfLongs, int.class});

        Serialization.ObjectInput in = json.deserialize(new ByteArrayInputStream(bytes));
        assertThat(in.readObject(String.class)).isEqualTo("a b");
        assertThat(in.readObject(String.class)).isNull();
        assertThat(in.readObject(listOfInts)).isEqualTo(List.of(1, 2));
        assertThat(in.readObject(mapOfLongs)).isEqualTo(Map.of("k", 3L));
        assertThat(in.readObject(int.class)).isEqualTo(7);
        assertThatThrownBy(() -> in.readObject(String.class))
                .isInstanceOf(IOException.class)
                .hasMessage("json input: ended early (expected: a value of type java.lang.String)");
    }

    @Test
    void strings_escapesAndNonAscii_roundTrip_andMatchWhatDatabindWrites() throws IOException {
        String text = "quote \" backslash \\ tab \t newline \n \u0001 é ✓ \uD83D\uDE00";
        byte[] asString = write(new Object[] {text}, new Type[] {String.class});
        byte[] asObject = write(new Object[] {text}, new Type[] {Object.class});

        assertThat(asString).isEqualTo(asObject);
        assertThat(json.deserialize(new ByteArrayInputStream(asString)).readObject(String.class)).isEqualTo(text);
    }

    @Test
    void stringDeclared_otherTokens_areRefused_strictly() throws IOException {
        Serialization.ObjectInput in = json.deserialize(new ByteArrayInputStream(
                "\"plain\" 123 true".getBytes(StandardCharsets.UTF_8)));
        assertThat(in.readObject(String.class)).isEqualTo("plain");
        assertThatThrownBy(() -> in.readObject(String.class)).isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot coerce Integer value (123) to `java.lang.String`");
        for (String other : new String[] {"true", "1.5", "{\"a\":1}", "[1]"}) {
            assertThatThrownBy(() -> json.deserialize(new ByteArrayInputStream(
                    other.getBytes(StandardCharsets.UTF_8))).readObject(String.class))
                    .as(other).isInstanceOf(IOException.class);
        }
    }

    @Test
    void requireEnd_refusesAnythingAfterTheLastValue_butNotWhitespace() throws IOException {
        Serialization.ObjectInput ok = json.deserialize(new ByteArrayInputStream("1 \n ".getBytes(StandardCharsets.UTF_8)));
        assertThat(ok.readObject(int.class)).isEqualTo(1);
        ok.requireEnd();
        Serialization.ObjectInput extra = json.deserialize(new ByteArrayInputStream("1 {}".getBytes(StandardCharsets.UTF_8)));
        assertThat(extra.readObject(int.class)).isEqualTo(1);
        assertThatThrownBy(extra::requireEnd).isInstanceOf(IOException.class)
                .hasMessage("json input: START_OBJECT at byte 2, after the last value (expected: the end of the input)");
    }

    @Test
    void tooManyTokens_areRefused_beforeTheyBecomeObjects() {
        String body = "[" + "{},".repeat((int) (JsonSerialization.MAX_TOKENS / 2)) + "{}]";
        assertThatThrownBy(() -> json.deserialize(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)))
                .readObject(Object.class))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Token count (500001) exceeds the maximum allowed (500000");
    }

    @Test
    void flush_endsTheOutput_withoutClosingTheStream() throws IOException {
        boolean[] closed = {false};
        ByteArrayOutputStream bytes = new ByteArrayOutputStream() {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        Serialization.ObjectOutput out = json.serialize(bytes);
        out.writeObject("x", String.class);
        out.flush();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("\"x\"");
        assertThat(closed[0]).isFalse();
    }

    @Test
    void streamThatDoesNotKnowItsLength_isReadToItsEnd() throws IOException {
        byte[] bytes = write(new Object[] {"x".repeat(10_000), 42}, new Type[] {String.class, Integer.class});
        InputStream trickle = new FilterInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            public int available() {
                return 0;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, 7));
            }
        };
        Serialization.ObjectInput in = json.deserialize(trickle);
        assertThat(in.readObject(String.class)).isEqualTo("x".repeat(10_000));
        assertThat(in.readObject(Integer.class)).isEqualTo(42);
    }

    @Test
    void emptyInput_failsNamingTheDeclaredType() throws IOException {
        Serialization.ObjectInput in = json.deserialize(new ByteArrayInputStream(new byte[0]));
        assertThatThrownBy(() -> in.readObject(Integer.class))
                .isInstanceOf(IOException.class)
                .hasMessage("json input: ended early (expected: a value of type java.lang.Integer)");
    }
}
