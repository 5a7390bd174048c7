package dev.weft.rpc.protocol.weft;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.common.base.Supplier;
import com.google.common.base.Suppliers;
import dev.weft.rpc.protocol.Serialization;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;

/**
 * The {@code json} serialization (wire id 1): Jackson databind bound to declared types.
 *
 * <p>Safety rules: default typing is never enabled and {@code @class}-style hints in the input
 * are plain unknown properties (ignored), so a value's class is always the declared one (or, for a
 * declared {@code Object}, a map, list, string, number or boolean); no class is loaded from the
 * input. Input limits: strings up to {@value #MAX_STRING_LENGTH} characters, numbers up to
 * {@value #MAX_NUMBER_LENGTH} digits, nesting up to {@value #MAX_NESTING_DEPTH} levels, property
 * names up to {@value #MAX_NAME_LENGTH} characters; the whole document is bounded by the frame
 * limit ({@code payload}) before it reaches Jackson. Unknown properties are ignored so that a
 * provider may add fields to a result type before its consumers know them.
 *
 * <p>A string declared as {@code String} is written and read with Jackson's streaming API alone;
 * every other value goes through databind, whose mapper is built on first use (a service of
 * strings never pays its start-up).
 *
 * <p>Thread-safe: one shared mapper; each stream gets its own parser or generator. An output's
 * {@code flush()} ends it (as the SPI says, once after the last value); an input's parser is
 * closed once its last byte is read, so both return their buffers to Jackson's pool.
 */
public final class JsonSerialization implements Serialization {

    /** The wire id of this format; never reused. */
    public static final byte ID = 1;

    static final int MAX_STRING_LENGTH = 8 * 1024 * 1024;
    static final int MAX_NUMBER_LENGTH = 1_000;
    static final int MAX_NESTING_DEPTH = 500;
    static final int MAX_NAME_LENGTH = 50_000;

    private final JsonFactory factory;
    /** Built on first use: a call whose values are all strings never needs databind. */
    private final Supplier<ObjectMapper> mapper;

    public JsonSerialization() {
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxStringLength(MAX_STRING_LENGTH)
                        .maxNumberLength(MAX_NUMBER_LENGTH)
                        .maxNestingDepth(MAX_NESTING_DEPTH)
                        .maxNameLength(MAX_NAME_LENGTH)
                        .build())
                .streamWriteConstraints(StreamWriteConstraints.builder()
                        .maxNestingDepth(MAX_NESTING_DEPTH)
                        .build())
                .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                // on the factory itself: streams made before the mapper exists must obey them too
                .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
                .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
                .build();
        this.mapper = Suppliers.memoize(() -> JsonMapper.builder(factory)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .enable(MapperFeature.BLOCK_UNSAFE_POLYMORPHIC_BASE_TYPES)
                .deactivateDefaultTyping()
                .build());
    }

    @Override
    public byte getId() {
        return ID;
    }

    @Override
    public ObjectOutput serialize(OutputStream out) throws IOException {
        JsonGenerator generator = factory.createGenerator(out);
        return new ObjectOutput() {
            @Override
            public void writeObject(Object value, Type declaredType) throws IOException {
                if (declaredType == String.class && value instanceof String text) {
                    generator.writeString(text);
                    return;
                }
                ObjectMapper m = mapper.get();
                JavaType type = m.constructType(declaredType);
                m.writerFor(type).writeValue(generator, value);
            }

            /** Ends this output: flushes, and returns the generator's buffers to Jackson's per-thread pool. */
            @Override
            public void flush() throws IOException {
                generator.close();
            }
        };
    }

    @Override
    public ObjectInput deserialize(InputStream in) throws IOException {
        // Frame bodies are bounded by the payload limit; parsing an array skips Jackson's stream
        // buffering, and knowing the end lets the parser return its buffers after the last value.
        byte[] bytes = readAll(in);
        JsonParser parser = factory.createParser(bytes);
        return declaredType -> {
            JsonToken token = parser.nextToken();
            if (token == null) {
                throw new IOException("json input: ended early (expected: a value of type "
                        + declaredType.getTypeName() + ")");
            }
            Object value = null;
            if (declaredType == String.class && token == JsonToken.VALUE_STRING) {
                value = parser.getText();
            } else if (token != JsonToken.VALUE_NULL) {
                ObjectMapper m = mapper.get();
                JavaType type = m.constructType(declaredType);
                value = m.readerFor(type).readValue(parser);
            }
            if (parser.currentLocation().getByteOffset() >= bytes.length) {
                parser.close();
            }
            return value;
        };
    }

    /** All of {@code in}; a stream that knows its length (a frame body) is read in one exact array. */
    private static byte[] readAll(InputStream in) throws IOException {
        byte[] head = in.readNBytes(in.available());
        int next = in.read();
        if (next < 0) {
            return head;
        }
        byte[] tail = in.readAllBytes();
        byte[] all = new byte[head.length + 1 + tail.length];
        System.arraycopy(head, 0, all, 0, head.length);
        all[head.length] = (byte) next;
        System.arraycopy(tail, 0, all, head.length + 1, tail.length);
        return all;
    }

    @Override
    public String toString() {
        return "json";
    }
}
