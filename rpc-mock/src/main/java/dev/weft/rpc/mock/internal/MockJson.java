package dev.weft.rpc.mock.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.jsontype.PolymorphicTypeValidator;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.TypeFactory;
import com.fasterxml.jackson.databind.util.LRUMap;
import com.fasterxml.jackson.databind.util.LookupCache;

import java.io.IOException;

/**
 * Builds the {@link ObjectMapper} that reads mock values, locked down for configuration that may
 * come from a registry:
 * <ul>
 *   <li>no default typing, and a polymorphic type validator that allows nothing, so even a
 *       {@code @JsonTypeInfo(use = CLASS)} on a return type cannot name a class from the input;</li>
 *   <li>{@link Class} and {@link JavaType} cannot be read (Jackson would load and initialise the
 *       named class);</li>
 *   <li>unknown properties, trailing tokens, duplicate keys and {@code null} for primitives fail;</li>
 *   <li>numbers are exact: decimals are read as {@code BigDecimal} (trailing zeros kept) and a
 *       decimal never becomes an integral type ({@code 1.5} for a {@code long} fails);</li>
 *   <li>every cache that holds types (deserializers, the type factory's, annotations') belongs
 *       to the mapper, none is shared through a static, so types die with the mapper;</li>
 *   <li>input is bounded: {@value #MAX_NESTING_DEPTH} levels, {@value #MAX_STRING_LENGTH}
 *       characters per string and per document, {@value #MAX_NUMBER_LENGTH} digits per number.</li>
 * </ul>
 */
public final class MockJson {

    static final int MAX_NESTING_DEPTH = 32;
    static final int MAX_STRING_LENGTH = MockExpressionParser.MAX_EXPRESSION_LENGTH;
    static final int MAX_NUMBER_LENGTH = 100;

    private MockJson() {
    }

    /** A new locked-down mapper; each owner keeps its own so its type caches die with it. */
    public static ObjectMapper newMapper() {
        StreamReadConstraints limits = StreamReadConstraints.builder()
                .maxNestingDepth(MAX_NESTING_DEPTH)
                .maxStringLength(MAX_STRING_LENGTH)
                .maxDocumentLength(MAX_STRING_LENGTH)
                .maxNameLength(1024)
                .maxNumberLength(MAX_NUMBER_LENGTH)
                .maxTokenCount(MAX_STRING_LENGTH)
                .build();
        JsonFactory factory = JsonFactory.builder().streamReadConstraints(limits).build();
        // the shared default type factory's cache would keep every return type's class loader alive
        LookupCache<Object, JavaType> typeCache = new LRUMap<>(16, 200);
        SimpleModule refusals = new SimpleModule("weft-mock-refusals");
        refuse(refusals, Class.class);
        refuse(refusals, JavaType.class);
        return JsonMapper.builder(factory)
                .polymorphicTypeValidator(new DenyAllTypes())
                .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
                .typeFactory(TypeFactory.defaultInstance().withCache(typeCache))
                .annotationIntrospector(new JacksonAnnotationIntrospector())
                .disable(MapperFeature.ALLOW_FINAL_FIELDS_AS_MUTATORS)
                .disable(MapperFeature.INFER_PROPERTY_MUTATORS)
                .addModule(refusals)
                .build();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void refuse(SimpleModule module, Class type) {
        module.addDeserializer(type, new Refusing(type));
    }

    /**
     * Denies every polymorphic subtype by name, before Jackson loads it: a validator that only
     * answered "indeterminate" would let Jackson load (and initialise) the class to decide.
     */
    private static final class DenyAllTypes extends PolymorphicTypeValidator.Base {
        private static final long serialVersionUID = 1L;

        @Override
        public Validity validateBaseType(MapperConfig<?> config, JavaType baseType) {
            return Validity.DENIED;
        }

        @Override
        public Validity validateSubClassName(MapperConfig<?> config, JavaType baseType, String subClassName) {
            return Validity.DENIED;
        }

        @Override
        public Validity validateSubType(MapperConfig<?> config, JavaType baseType, JavaType subType) {
            return Validity.DENIED;
        }
    }

    /** Refuses to read a type that would make Jackson load classes by name. */
    private static final class Refusing<T> extends StdDeserializer<T> {
        private static final long serialVersionUID = 1L;

        Refusing(Class<?> type) {
            super(type);
        }

        @Override
        public T deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            return context.reportInputMismatch(this, "%s values are not accepted in mocks (they name classes)",
                    handledType().getName());
        }
    }
}
