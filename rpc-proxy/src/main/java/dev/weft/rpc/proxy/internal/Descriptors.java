package dev.weft.rpc.proxy.internal;

import java.util.Locale;

/** JVM names and descriptors of classes, and the primitive/wrapper correspondence. */
final class Descriptors {

    private Descriptors() {
    }

    /** The internal (slash-separated) name, or the descriptor for an array, as a class constant wants it. */
    static String internalName(Class<?> type) {
        return type.getName().replace('.', '/');
    }

    /** The field descriptor: {@code I}, {@code [J}, {@code Ljava/lang/String;}. */
    static String descriptor(Class<?> type) {
        if (type.isPrimitive()) {
            return String.valueOf(primitiveCode(type));
        }
        if (type.isArray()) {
            return internalName(type);
        }
        return 'L' + internalName(type) + ';';
    }

    /** The method descriptor {@code (params)return}. */
    static String methodDescriptor(Class<?> returnType, Class<?>... parameterTypes) {
        StringBuilder sb = new StringBuilder("(");
        for (Class<?> type : parameterTypes) {
            sb.append(descriptor(type));
        }
        return sb.append(')').append(descriptor(returnType)).toString();
    }

    private static char primitiveCode(Class<?> type) {
        if (type == int.class) {
            return 'I';
        } else if (type == long.class) {
            return 'J';
        } else if (type == boolean.class) {
            return 'Z';
        } else if (type == double.class) {
            return 'D';
        } else if (type == float.class) {
            return 'F';
        } else if (type == char.class) {
            return 'C';
        } else if (type == short.class) {
            return 'S';
        } else if (type == byte.class) {
            return 'B';
        } else if (type == void.class) {
            return 'V';
        }
        throw new IllegalArgumentException("type: " + type + " (expected: a primitive type)");
    }

    /** The wrapper of a primitive type ({@code Void} for {@code void}); other types unchanged. */
    static Class<?> box(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        } else if (type == int.class) {
            return Integer.class;
        } else if (type == long.class) {
            return Long.class;
        } else if (type == boolean.class) {
            return Boolean.class;
        } else if (type == double.class) {
            return Double.class;
        } else if (type == float.class) {
            return Float.class;
        } else if (type == char.class) {
            return Character.class;
        } else if (type == short.class) {
            return Short.class;
        } else if (type == byte.class) {
            return Byte.class;
        }
        return Void.class;
    }

    /** Stack slots a value of {@code type} takes: 2 for long and double, else 1. */
    static int slots(Class<?> type) {
        return type == long.class || type == double.class ? 2 : 1;
    }

    /** {@code "an int"}, {@code "a long"}: the type name with its article, for messages. */
    static String article(Class<?> type) {
        String name = type.getTypeName();
        char first = Character.toLowerCase(name.charAt(0));
        return ("aeiou".indexOf(first) >= 0 ? "an " : "a ") + name;
    }

    /** Name of the unboxing method of a primitive's wrapper: {@code intValue}. */
    static String unboxMethod(Class<?> primitive) {
        return primitive.getName().toLowerCase(Locale.ROOT) + "Value";
    }
}
