package dev.weft.rpc.spi.internal;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.URL;
import javassist.bytecode.AccessFlag;
import javassist.bytecode.BadBytecode;
import javassist.bytecode.Bytecode;
import javassist.bytecode.ClassFile;
import javassist.bytecode.CodeAttribute;
import javassist.bytecode.ConstPool;
import javassist.bytecode.DuplicateMemberException;
import javassist.bytecode.FieldInfo;
import javassist.bytecode.MethodInfo;
import javassist.bytecode.Opcode;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.List;

/**
 * Builds adaptive extension classes straight as bytecode (javassist's class-file API, no source
 * compiler): fast to start and immune to injection, because the only strings in the class are
 * type and method names taken from reflection; URL keys stay in {@link AdaptiveSupport}.
 *
 * <p>Each adaptive method is branch-free:
 * {@code return ((T) support.extension(i, <url>, <invocation or null>)).method(args...)}.
 * The class is defined next to the extension point (same class loader and package) and cached
 * per extension point in a {@link ClassValue}, which pins no class loader.
 */
public final class AdaptiveClassGenerator {

    private static final String SUPPORT = AdaptiveSupport.class.getName();
    private static final String SUPPORT_DESC = AdaptiveSupport.class.descriptorString();
    private static final String SUPPORT_FIELD = "support";

    /** One slot per extension point, filled once; a {@link ClassValue} pins no class loader. */
    private static final ClassValue<Slot> GENERATED = new ClassValue<>() {
        @Override
        protected Slot computeValue(Class<?> type) {
            return new Slot();
        }
    };

    private static final class Slot {
        private Class<?> generated;

        synchronized Class<?> get(Class<?> type, List<AdaptiveMethod> methods) {
            if (generated == null) {
                generated = define(type, methods);
            }
            return generated;
        }
    }

    private AdaptiveClassGenerator() {
    }

    /**
     * Creates an adaptive instance of {@code type} backed by {@code support}; the class is
     * generated from {@code support.methods()} the first time, then reused.
     */
    public static Object newInstance(Class<?> type, AdaptiveSupport support) {
        Class<?> generated = GENERATED.get(type).get(type, support.methods());
        try {
            return generated.getConstructor(AdaptiveSupport.class).newInstance(support);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Adaptive extension of " + type.getName() + ": cannot instantiate " + generated, e);
        }
    }

    private static Class<?> define(Class<?> type, List<AdaptiveMethod> methods) {
        String className = type.getName() + "$WeftAdaptive";
        ClassFile file = new ClassFile(false, className, Object.class.getName());
        file.setMajorVersion(ClassFile.JAVA_8);
        file.setAccessFlags(AccessFlag.PUBLIC | AccessFlag.FINAL | AccessFlag.SYNTHETIC | AccessFlag.SUPER);
        file.setInterfaces(new String[] {type.getName()});
        ConstPool pool = file.getConstPool();
        try {
            FieldInfo field = new FieldInfo(pool, SUPPORT_FIELD, SUPPORT_DESC);
            field.setAccessFlags(AccessFlag.PRIVATE | AccessFlag.FINAL);
            file.addField(field);
            file.addMethod(constructor(pool, className));
            file.addMethod(toStringMethod(pool, className));
            for (int i = 0; i < methods.size(); i++) {
                file.addMethod(method(pool, className, type, methods.get(i), i));
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                file.write(out);
            }
            return MethodHandles.privateLookupIn(type, MethodHandles.lookup()).defineClass(bytes.toByteArray());
        } catch (DuplicateMemberException | BadBytecode | IOException | IllegalAccessException e) {
            throw new IllegalStateException("Adaptive extension of " + type.getName() + ": cannot generate " + className, e);
        }
    }

    private static MethodInfo constructor(ConstPool pool, String className) throws BadBytecode {
        MethodInfo info = new MethodInfo(pool, MethodInfo.nameInit, "(" + SUPPORT_DESC + ")V");
        info.setAccessFlags(AccessFlag.PUBLIC);
        Bytecode code = new Bytecode(pool, 0, 2);
        code.addAload(0);
        code.addInvokespecial(Object.class.getName(), MethodInfo.nameInit, "()V");
        code.addAload(0);
        code.addAload(1);
        code.addPutfield(className, SUPPORT_FIELD, SUPPORT_DESC);
        code.addOpcode(Opcode.RETURN);
        return finish(info, code);
    }

    private static MethodInfo toStringMethod(ConstPool pool, String className) throws BadBytecode {
        MethodInfo info = new MethodInfo(pool, "toString", "()Ljava/lang/String;");
        info.setAccessFlags(AccessFlag.PUBLIC);
        Bytecode code = new Bytecode(pool, 0, 1);
        code.addAload(0);
        code.addGetfield(className, SUPPORT_FIELD, SUPPORT_DESC);
        code.addInvokevirtual(SUPPORT, "describe", "()Ljava/lang/String;");
        code.addOpcode(Opcode.ARETURN);
        return finish(info, code);
    }

    private static MethodInfo method(ConstPool pool, String className, Class<?> type, AdaptiveMethod adaptive, int index)
            throws BadBytecode {
        Method method = adaptive.method();
        String descriptor = MethodType.methodType(method.getReturnType(), method.getParameterTypes()).toMethodDescriptorString();
        MethodInfo info = new MethodInfo(pool, method.getName(), descriptor);
        info.setAccessFlags(AccessFlag.PUBLIC);
        Class<?>[] parameters = method.getParameterTypes();
        int[] slots = new int[parameters.length];
        int nextSlot = 1;
        for (int i = 0; i < parameters.length; i++) {
            slots[i] = nextSlot;
            nextSlot += (parameters[i] == long.class || parameters[i] == double.class) ? 2 : 1;
        }
        Bytecode code = new Bytecode(pool, 0, nextSlot);
        if (!adaptive.adaptive()) {
            code.addAload(0);
            code.addGetfield(className, SUPPORT_FIELD, SUPPORT_DESC);
            code.addIconst(index);
            code.addInvokevirtual(SUPPORT, "unsupported", "(I)Ljava/lang/RuntimeException;");
            code.addOpcode(Opcode.ATHROW);
            return finish(info, code);
        }
        // support.extension(index, url, invocation)
        code.addAload(0);
        code.addGetfield(className, SUPPORT_FIELD, SUPPORT_DESC);
        code.addIconst(index);
        int urlSlot = slots[adaptive.urlIndex()];
        Class<?> urlHolder = parameters[adaptive.urlIndex()];
        if (adaptive.urlThroughGetter()) {
            code.addAload(0);
            code.addGetfield(className, SUPPORT_FIELD, SUPPORT_DESC);
            code.addAload(urlSlot);
            code.addIconst(index);
            code.addInvokevirtual(SUPPORT, "requireUrlHolder", "(Ljava/lang/Object;I)Ljava/lang/Object;");
            code.addCheckcast(urlHolder.getName());
            String getterDesc = "()" + URL.class.descriptorString();
            if (urlHolder.isInterface()) {
                code.addInvokeinterface(urlHolder.getName(), "getUrl", getterDesc, 1);
            } else {
                code.addInvokevirtual(urlHolder.getName(), "getUrl", getterDesc);
            }
        } else {
            code.addAload(urlSlot);
        }
        if (adaptive.invocationIndex() >= 0) {
            code.addAload(slots[adaptive.invocationIndex()]);
        } else {
            code.addOpcode(Opcode.ACONST_NULL);
        }
        code.addInvokevirtual(SUPPORT, "extension",
                "(I" + URL.class.descriptorString() + Invocation.class.descriptorString() + ")Ljava/lang/Object;");
        code.addCheckcast(type.getName());
        for (int i = 0; i < parameters.length; i++) {
            load(code, parameters[i], slots[i]);
        }
        // invokeinterface counts the receiver and every argument slot: exactly the local slots used
        code.addInvokeinterface(type.getName(), method.getName(), descriptor, nextSlot);
        code.addOpcode(returnOpcode(method.getReturnType()));
        return finish(info, code);
    }

    private static void load(Bytecode code, Class<?> type, int slot) {
        if (type == long.class) {
            code.addLload(slot);
        } else if (type == double.class) {
            code.addDload(slot);
        } else if (type == float.class) {
            code.addFload(slot);
        } else if (type.isPrimitive()) {
            code.addIload(slot);
        } else {
            code.addAload(slot);
        }
    }

    private static int returnOpcode(Class<?> type) {
        if (type == void.class) {
            return Opcode.RETURN;
        } else if (type == long.class) {
            return Opcode.LRETURN;
        } else if (type == double.class) {
            return Opcode.DRETURN;
        } else if (type == float.class) {
            return Opcode.FRETURN;
        } else if (type.isPrimitive()) {
            return Opcode.IRETURN;
        }
        return Opcode.ARETURN;
    }

    private static MethodInfo finish(MethodInfo info, Bytecode code) throws BadBytecode {
        CodeAttribute attribute = code.toCodeAttribute();
        attribute.computeMaxStack();
        info.setCodeAttribute(attribute);
        return info;
    }
}
