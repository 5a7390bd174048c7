package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.protocol.Serialization;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields of a declared exception across the wire, so that an exception whose constructor
 * takes something other than a message (a SKU, an account id) arrives with its own values. Each
 * instance field the exception's class and its superclasses declare, up to the first JDK class,
 * crosses as the service's serialization writes it against the field's declared type; the
 * consumer reads it against the type its own copy of the class declares, and only for the
 * declared class it re-created. Static and transient fields are left out, and so are fields that
 * cannot be read, written or encoded (the exception still crosses, with its message). Stateless.
 */
final class ExceptionFields {

    /** At most this many fields cross. */
    static final int MAX_FIELDS = 64;

    private ExceptionFields() {
    }

    /** The encodable fields of {@code error}, by name; empty for JDK exceptions. */
    static Map<String, byte[]> write(Throwable error, Serialization serialization) {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        for (Field field : instanceFields(error.getClass())) {
            if (fields.size() == MAX_FIELDS) {
                break;
            }
            try {
                field.setAccessible(true);
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                Serialization.ObjectOutput out = serialization.serialize(bytes);
                out.writeObject(field.get(error), field.getGenericType());
                out.flush();
                fields.putIfAbsent(field.getName(), bytes.toByteArray());
            } catch (IOException | ReflectiveOperationException | RuntimeException e) {
                // a field that cannot be read or encoded stays behind; the exception still crosses
            }
        }
        return fields;
    }

    /** Sets on {@code target} (a declared class the consumer re-created) the fields it declares that arrived. */
    static void read(Throwable target, Map<String, byte[]> fields, Serialization serialization) {
        if (fields == null || fields.isEmpty()) {
            return;
        }
        for (Field field : instanceFields(target.getClass())) {
            byte[] bytes = fields.get(field.getName());
            if (bytes == null) {
                continue;
            }
            try {
                Serialization.ObjectInput in = serialization.deserialize(new ByteArrayInputStream(bytes));
                Object value = in.readObject(field.getGenericType());
                in.requireEnd();
                if (value == null && field.getType().isPrimitive()) {
                    continue;
                }
                field.setAccessible(true);
                field.set(target, value);
            } catch (IOException | ReflectiveOperationException | RuntimeException e) {
                // a field that does not fit the consumer's class keeps what its constructor set
            }
        }
    }

    /** Instance fields, non-transient, of {@code type} and its superclasses below the first JDK class. */
    private static List<Field> instanceFields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = type; c != null && !isJdk(c); c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers) && !field.isSynthetic()) {
                    fields.add(field);
                }
            }
        }
        return fields;
    }

    private static boolean isJdk(Class<?> c) {
        String name = c.getName();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.") || name.startsWith("sun.");
    }
}
