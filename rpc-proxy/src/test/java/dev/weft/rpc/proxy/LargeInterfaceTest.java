package dev.weft.rpc.proxy;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import javassist.ClassPool;
import javassist.CtClass;
import javassist.CtNewMethod;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;

import static org.assertj.core.api.Assertions.assertThat;

/** An interface with more methods than one generated dispatch method can hold (64 KiB of bytecode). */
class LargeInterfaceTest {

    private static final int METHODS = 800;
    private static final String PARAMETERS = "(int a, double b, String c, long d, int e, double f, String g, long h)";

    /** Defines {@code Large} with methods {@code long m<i>(8 parameters)} and an implementation returning {@code i + a}. */
    private static Class<?>[] defineInterfaceAndImplementation() throws Exception {
        ClassPool pool = new ClassPool(true);
        CtClass type = pool.makeInterface("dev.weft.rpc.proxy.GeneratedLargeService");
        CtClass impl = pool.makeClass("dev.weft.rpc.proxy.GeneratedLargeServiceImpl");
        impl.addInterface(type);
        for (int i = 0; i < METHODS; i++) {
            type.addMethod(CtNewMethod.make("public abstract long m" + i + PARAMETERS + ";", type));
            impl.addMethod(CtNewMethod.make("public long m" + i + PARAMETERS + " { return " + i + "L + a; }", impl));
        }
        return new Class<?>[] {type.toClass(LargeInterfaceTest.class), impl.toClass(LargeInterfaceTest.class)};
    }

    @Test
    void javassistInvoker_ofAnInterfaceTooLargeForOneDispatchMethod_dispatchesEveryMethod() throws Throwable {
        Class<?>[] classes = defineInterfaceAndImplementation();
        @SuppressWarnings("unchecked")
        Class<Object> type = (Class<Object>) classes[0];
        Object impl = classes[1].getConstructor().newInstance();
        ProxyFactory factory = new JavassistProxyFactory();

        Invoker<Object> invoker = factory.getInvoker(impl, type, URL.valueOf("weft://127.0.0.1:20880/large"));
        Object proxy = factory.getProxy(invoker);

        for (int i : new int[] {0, 1, METHODS / 2, METHODS - 1}) {
            Method method = type.getMethod("m" + i, int.class, double.class, String.class, long.class,
                    int.class, double.class, String.class, long.class);
            Object[] args = {5, 1.0, "c", 2L, 3, 4.0, "g", 6L};
            assertThat(invoker.invoke(new RpcInvocation(method, args)).recreate()).as("m%s", i).isEqualTo(i + 5L);
            assertThat(method.invoke(proxy, args)).as("m%s through the proxy", i).isEqualTo(i + 5L);
        }
    }
}
