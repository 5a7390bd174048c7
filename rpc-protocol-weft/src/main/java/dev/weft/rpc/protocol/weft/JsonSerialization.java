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
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.google.common.base.Supplier;
import com.google.common.base.Suppliers;
import dev.weft.rpc.protocol.Serialization;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;
import dev.weft.rpc.spi.ExtensionLoader;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The {@code json} serialization (wire id 1): Jackson databind bound to declared types.
 *
 * <p>Safety rules: default typing is never enabled and {@code @class}-style hints in the input
 * are plain unknown properties (ignored), so a value's class is always the declared one (or, for a
 * declared {@code Object}, a map, list, string, number or boolean); no class is loaded from the
 * input. Input limits: strings up to {@value #MAX_STRING_LENGTH} characters, numbers up to
 * {@value #MAX_NUMBER_LENGTH} digits, {@code BigDecimal} exponents up to
 * {@value StrictNumbers#MAX_EXPONENT} in magnitude, nesting up to {@value #MAX_NESTING_DEPTH}
 * levels, property names up to {@value #MAX_NAME_LENGTH} characters, at most
 * {@value #MAX_TOKENS} tokens (values, names, brackets) per body; the whole document is bounded by
 * the frame limit ({@code payload}) before it reaches Jackson.
 *
 * <p>Strict reading: a value must have its declared JSON shape ({@code "1"} is not an {@code int},
 * {@code 1.5} is not a {@code long}, {@code 1} is not a {@code String}), an object must not repeat
 * a key, and nothing may follow the last value ({@link ObjectInput#requireEnd()}). Unknown
 * properties are ignored, so that a provider may add fields to a result type before its consumers
 * know them.
 *
 * <p>Types carried: Java's scalars and their wrappers, {@code String}, {@code BigDecimal},
 * {@code BigInteger}, enums (by name), {@code byte[]} (base64), arrays, generic collections and
 * maps, records and beans, {@code java.time} values (ISO-8601 text), {@code Optional} and its
 * primitive variants; more through {@link JsonModuleProvider} extensions.
 * {@link #checkSupported(Type)} refuses a type it cannot carry (at export and refer).
 *
 * <p>A string declared as {@code String} is written and read with Jackson's streaming API alone;
 * every other value goes through databind, whose mapper is built on first use (a service of
 * strings never pays its start-up).
 *
 * <p>Thread-safe: one shared mapper; each stream gets its own parser or generator. An output's
 * {@code flush()} ends it (as the SPI says, once after the last value); an input's parser is
 * closed once its last byte is read, so both return their buffers to Jackson's pool.
 */
public final class JsonSerialization implements Serialization, ExtensionDirectorAware {

    /** The wire id of this format; never reused. */
    public static final byte ID = 1;

    static final int MAX_STRING_LENGTH = 8 * 1024 * 1024;
    static final int MAX_NUMBER_LENGTH = 1_000;
    static final int MAX_NESTING_DEPTH = 500;
    static final int MAX_NAME_LENGTH = 50_000;
    /**
     * Tokens (values, names, brackets) per body: an 8 MiB body of {@code [{},{},...]} would
     * otherwise become about 2.8 million maps (hundreds of MiB of heap) from one request; at this
     * cap it is at most 250,000 (about 15 MiB).
     */
    static final long MAX_TOKENS = 500_000;

    private final JsonFactory factory;
    /** Built on first use: a call whose values are all strings never needs databind. */
    private final Supplier<ObjectMapper> mapper;
    private volatile ExtensionDirector director;

    public JsonSerialization() {
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxStringLength(MAX_STRING_LENGTH)
                        .maxNumberLength(MAX_NUMBER_LENGTH)
                        .maxNestingDepth(MAX_NESTING_DEPTH)
                        .maxNameLength(MAX_NAME_LENGTH)
                        .maxTokenCount(MAX_TOKENS)
                        .build())
                .streamWriteConstraints(StreamWriteConstraints.builder()
                        .maxNestingDepth(MAX_NESTING_DEPTH)
                        .build())
                .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                // on the factory itself: streams made before the mapper exists must obey them too
                .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
                .build();
        this.mapper = Suppliers.memoize(this::buildMapper);
    }

    /** Where the {@link JsonModuleProvider} extensions come from (the default director when never set). */
    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        this.director = director;
    }

    private ObjectMapper buildMapper() {
        JsonMapper mapper = JsonMapper.builder(factory)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(MapperFeature.BLOCK_UNSAFE_POLYMORPHIC_BASE_TYPES)
                .deactivateDefaultTyping()
                .addModule(new Jdk8Module())
                .addModule(new JavaTimeModule())
                .addModule(StrictNumbers.module())
                .addModules(extensionModules())
                .build();
        // a number is not text: 1 into a String parameter is refused like "1" into an int
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        return mapper;
    }

    private List<Module> extensionModules() {
        ExtensionDirector d = director == null ? ExtensionDirector.getDefault() : director;
        ExtensionLoader<JsonModuleProvider> loader = d.getExtensionLoader(JsonModuleProvider.class);
        List<Module> modules = new ArrayList<>();
        for (String name : new TreeSet<>(loader.getSupportedExtensions())) {
            modules.add(loader.getExtension(name).module());
        }
        return modules;
    }

    @Override
    public byte getId() {
        return ID;
    }

    /**
     * Refuses a type Jackson cannot write or read as declared: an interface or abstract class
     * other than a collection, map or {@code Object} (no class to create), a type whose
     * serializer or deserializer cannot be built (e.g. a {@code Thread}).
     */
    @Override
    public void checkSupported(Type declaredType) {
        if (declaredType == void.class || declaredType == Void.class || declaredType == String.class) {
            return;
        }
        ObjectMapper m = mapper.get();
        JavaType type = m.constructType(declaredType);
        JsonTypes.check(m, type);
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
        return new ObjectInput() {
            @Override
            public Object readObject(Type declaredType) throws IOException {
                JsonToken token = parser.nextToken();
                if (token == null) {
                    throw new IOException("json input: ended early (expected: a value of type "
                            + declaredType.getTypeName() + ")");
                }
                Object value = null;
                if (declaredType == String.class && token == JsonToken.VALUE_STRING) {
                    value = parser.getText();
                } else if (token != JsonToken.VALUE_NULL || !isPlainNull(declaredType)) {
                    ObjectMapper m = mapper.get();
                    JavaType type = m.constructType(declaredType);
                    value = m.readerFor(type).readValue(parser);
                }
                closeAtEnd();
                return value;
            }

            @Override
            public void requireEnd() throws IOException {
                if (parser.isClosed()) {
                    return;
                }
                JsonToken extra = parser.nextToken();
                if (extra != null) {
                    long at = parser.currentTokenLocation().getByteOffset();
                    parser.close();
                    throw new IOException("json input: " + extra + " at byte " + at
                            + ", after the last value (expected: the end of the input)");
                }
                parser.close();
            }

            private void closeAtEnd() throws IOException {
                if (parser.currentLocation().getByteOffset() >= bytes.length) {
                    parser.close();
                }
            }
        };
    }

    /**
     * Whether JSON {@code null} reads as Java {@code null} without databind: for strings, and for
     * primitives (whose callers name the missing value themselves); other types ask databind,
     * so that an {@code Optional} reads as empty.
     */
    private static boolean isPlainNull(Type declaredType) {
        return declaredType == String.class || declaredType instanceof Class<?> c && c.isPrimitive();
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
