package dev.weft.rpc.protocol.weft;

import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.AbstractDeserializer;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.jsontype.TypeDeserializer;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Whether the {@code json} serialization can carry a declared type, asked once per method at
 * export and refer so that a type it cannot carry fails there, not at the first call.
 */
final class JsonTypes {

    private JsonTypes() {
    }

    /**
     * Checks {@code type}, its type arguments and its container contents.
     *
     * @throws IllegalArgumentException naming the type and why it cannot be carried
     */
    static void check(ObjectMapper mapper, JavaType type) {
        check(mapper, type, new IdentityHashMap<>());
    }

    private static void check(ObjectMapper mapper, JavaType type, Map<JavaType, Boolean> seen) {
        if (type == null || seen.put(type, Boolean.TRUE) != null || type.isJavaLangObject() || type.isPrimitive()) {
            return;
        }
        try {
            mapper.getSerializerProviderInstance().findTypedValueSerializer(type, true, null);
            DefaultDeserializationContext context = ((DefaultDeserializationContext) mapper.getDeserializationContext())
                    .createDummyInstance(mapper.getDeserializationConfig());
            JsonDeserializer<?> deserializer = context.findRootValueDeserializer(type);
            if (deserializer instanceof AbstractDeserializer && typeInfo(mapper.getDeserializationConfig(), type) == null) {
                throw new IllegalArgumentException("type " + type.toCanonical()
                        + ": abstract, with no class named to create (expected: a concrete class, a record,"
                        + " a collection or map, or a type with @JsonTypeInfo and @JsonSubTypes)");
            }
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (Exception e) { // Jackson's JsonMappingException and its own runtime failures alike
            throw new IllegalArgumentException("type " + type.toCanonical() + ": the json serialization cannot carry it: "
                    + e.getMessage().lines().findFirst().orElse(""), e);
        }
        if (type.getContentType() != null) {
            check(mapper, type.getContentType(), seen);
        }
        if (type.getKeyType() != null) {
            check(mapper, type.getKeyType(), seen);
        }
        for (int i = 0; i < type.getBindings().size(); i++) {
            check(mapper, type.getBindings().getBoundType(i), seen);
        }
    }

    private static TypeDeserializer typeInfo(DeserializationConfig config, JavaType type) throws Exception {
        return config.findTypeDeserializer(type);
    }
}
