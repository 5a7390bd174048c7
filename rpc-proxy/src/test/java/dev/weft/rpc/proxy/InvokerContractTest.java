package dev.weft.rpc.proxy;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntBinaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Provider-side semantics of {@code getInvoker}, identical for both factories. */
class InvokerContractTest {

    private static final URL URL = dev.weft.rpc.common.URL.valueOf("weft://10.0.0.2:20880/sample");

    private static Invoker<SampleService> invoker(Factories factories) {
        return factories.factory.getInvoker(new SampleServiceImpl(), SampleService.class, URL);
    }

    private static RpcInvocation call(String name, Class<?>[] types, Object... args) {
        return new RpcInvocation(name, types, args);
    }

    @ForEachFactory
    void invoker_dispatchesByNameAndParameterTypes_toTheRightOverload(Factories factories) {
        Invoker<SampleService> invoker = invoker(factories);

        assertThat(invoker.invoke(call("describe", new Class<?>[] {int.class}, 7)).getValue()).isEqualTo("int 7");
        assertThat(invoker.invoke(call("describe", new Class<?>[] {Integer.class}, 7)).getValue()).isEqualTo("Integer 7");
        assertThat(invoker.invoke(call("describe", new Class<?>[] {Object.class}, 7)).getValue()).isEqualTo("Object 7");
        assertThat(invoker.invoke(call("describe", new Class<?>[] {String.class}, "7")).getValue()).isEqualTo("String 7");
        assertThat(invoker.invoke(call("describe", new Class<?>[] {long[].class}, (Object) new long[2])).getValue())
                .isEqualTo("long[] 2");
    }

    @ForEachFactory
    void invoker_primitivesAndVoid_areBoxedAndNull(Factories factories) {
        SampleServiceImpl impl = new SampleServiceImpl();
        Invoker<SampleService> invoker = factories.factory.getInvoker(impl, SampleService.class, URL);

        assertThat(invoker.invoke(call("addLong", new Class<?>[] {long.class, long.class}, 1L, 2L)).getValue()).isEqualTo(3L);
        assertThat(invoker.invoke(call("nextChar", new Class<?>[] {char.class}, 'y')).getValue()).isEqualTo('z');
        assertThat(invoker.invoke(call("half", new Class<?>[] {double.class}, 3.0)).getValue()).isEqualTo(1.5);
        Result recorded = invoker.invoke(call("record", new Class<?>[] {String.class}, "e1"));
        assertThat(recorded.getValue()).isNull();
        assertThat(recorded.hasException()).isFalse();
        assertThat(impl.recorded()).containsExactly("e1");
    }

    @ForEachFactory
    void invoker_defaultMethod_runsTheImplementationsOverride(Factories factories) {
        Invoker<SampleService> overriding = invoker(factories);
        Invoker<SampleService> inheriting = factories.factory.getInvoker(new SampleService() {
            @Override public int add(int a, int b) { return 0; }
            @Override public long addLong(long a, long b) { return 0; }
            @Override public double half(double value) { return 0; }
            @Override public float scale(float value, float factor) { return 0; }
            @Override public boolean negate(boolean value) { return false; }
            @Override public char nextChar(char value) { return 0; }
            @Override public byte nextByte(byte value) { return 0; }
            @Override public short nextShort(short value) { return 0; }
            @Override public void record(String entry) { }
            @Override public java.util.List<String> recorded() { return null; }
            @Override public int[] reverse(int[] values) { return null; }
            @Override public String[][] grid(int rows, int columns) { return null; }
            @Override public java.util.List<String> names(java.util.Map<String, Integer> ages) { return null; }
            @Override public <T extends Comparable<T>> T max(T a, T b) { return null; }
            @Override public int sum(int... values) { return 0; }
            @Override public String describe(int value) { return null; }
            @Override public String describe(Integer value) { return null; }
            @Override public String describe(String value) { return null; }
            @Override public String describe(Object value) { return null; }
            @Override public String describe(long[] values) { return null; }
            @Override public String mixed(long a, int b, double c, String d, boolean e, char f, byte g, short h, float i) {
                return null;
            }
            @Override public String load(String key) { return null; }
            @Override public String risky(String kind) { return null; }
        }, SampleService.class, URL);

        RpcInvocation greet = call("greet", new Class<?>[] {String.class}, "ann");
        assertThat(overriding.invoke(greet).getValue()).isEqualTo("hi ann");
        assertThat(inheriting.invoke(greet).getValue()).isEqualTo("hello ann");
    }

    @ForEachFactory
    void invoker_implementationException_isReturnedInTheResult(Factories factories) {
        Invoker<SampleService> invoker = invoker(factories);

        Result checked = invoker.invoke(call("load", new Class<?>[] {String.class}, "missing"));
        Result unchecked = invoker.invoke(call("risky", new Class<?>[] {String.class}, "state"));
        Result error = invoker.invoke(call("risky", new Class<?>[] {String.class}, "error"));

        assertThat(checked.getException()).isExactlyInstanceOf(CheckedFailure.class).hasMessage("no missing");
        assertThat(unchecked.getException()).isExactlyInstanceOf(IllegalStateException.class).hasMessage("bad state");
        assertThat(error.getException()).isExactlyInstanceOf(AssertionError.class).hasMessage("broken");
        assertThat(checked.getValue()).isNull();
    }

    @ForEachFactory
    void invoker_unknownMethod_failsNamingSignatureAndAvailableMethods(Factories factories) {
        Invoker<IntBinaryOperator> invoker = factories.factory.getInvoker((a, b) -> a + b, IntBinaryOperator.class, URL);

        assertThatThrownBy(() -> invoker.invoke(call("applyAsInt", new Class<?>[] {long.class, long.class}, 1L, 2L)))
                .isExactlyInstanceOf(RpcException.class)
                .hasMessage("Method: java.util.function.IntBinaryOperator.applyAsInt(long, long) "
                        + "(expected: one of [applyAsInt(int, int)])");
        assertThatThrownBy(() -> invoker(factories).invoke(call("describ", new Class<?>[] {int.class}, 1)))
                .isExactlyInstanceOf(RpcException.class)
                .hasMessageStartingWith("Method: dev.weft.rpc.proxy.SampleService.describ(int) (expected: one of [add(int, int), "
                        + "addLong(long, long), describe(int), describe(java.lang.Integer), describe(java.lang.Object), ");
    }

    @ForEachFactory
    void invoker_argumentsThatDoNotFit_failWithClearMessages(Factories factories) {
        Invoker<SampleService> invoker = invoker(factories);
        Class<?>[] intInt = {int.class, int.class};

        assertThatThrownBy(() -> invoker.invoke(call("add", intInt, 1)))
                .isExactlyInstanceOf(RpcException.class)
                .hasMessage("Arguments of dev.weft.rpc.proxy.SampleService.add(int, int): 1 value (expected: 2)");
        assertThatThrownBy(() -> invoker.invoke(call("add", intInt, 1, null)))
                .isExactlyInstanceOf(RpcException.class)
                .hasMessage("Argument 1 of dev.weft.rpc.proxy.SampleService.add(int, int): null (expected: an int)");
        assertThatThrownBy(() -> invoker.invoke(call("add", intInt, 1, "2")))
                .isExactlyInstanceOf(RpcException.class)
                .hasMessage("Argument 1 of dev.weft.rpc.proxy.SampleService.add(int, int): java.lang.String "
                        + "(expected: an instance of int)");
    }

    @ForEachFactory
    void invoker_nonPublicAndGeneratedImplementations_dispatchThroughTheInterface(Factories factories) {
        IntBinaryOperator lambda = (a, b) -> a * b;
        IntBinaryOperator jdkProxy = (IntBinaryOperator) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {IntBinaryOperator.class}, (p, m, args) -> (Integer) args[0] - (Integer) args[1]);
        RpcInvocation sixSeven = call("applyAsInt", new Class<?>[] {int.class, int.class}, 6, 7);

        assertThat(factories.factory.getInvoker(new PrivateAdder(), IntBinaryOperator.class, URL).invoke(sixSeven).getValue())
                .isEqualTo(13);
        assertThat(factories.factory.getInvoker(lambda, IntBinaryOperator.class, URL).invoke(sixSeven).getValue())
                .isEqualTo(42);
        assertThat(factories.factory.getInvoker(jdkProxy, IntBinaryOperator.class, URL).invoke(sixSeven).getValue())
                .isEqualTo(-1);
    }

    @ForEachFactory
    void invoker_exposesUrlAndInterface_andRejectsCallsOnceDestroyed_asNotProcessed(Factories factories) {
        Invoker<SampleService> invoker = invoker(factories);

        assertThat(invoker.getUrl()).isSameAs(URL);
        assertThat(invoker.getInterface()).isEqualTo(SampleService.class);
        assertThat(invoker.isAvailable()).isTrue();
        invoker.destroy();
        invoker.destroy();
        assertThat(invoker.isAvailable()).isFalse();
        assertThatThrownBy(() -> invoker.invoke(call("add", new Class<?>[] {int.class, int.class}, 1, 2)))
                .isExactlyInstanceOf(RpcException.class)
                .hasMessage("Invoker of dev.weft.rpc.proxy.SampleService: destroyed (expected: a live invoker; "
                        + "not run, safe to retry) weft://10.0.0.2:20880/sample")
                .satisfies(e -> assertThat(((RpcException) e).isNotProcessed())
                        .as("the implementation did not run, so a cluster may retry elsewhere").isTrue());
    }

    @ForEachFactory
    @SuppressWarnings({"unchecked", "rawtypes"})
    void getInvoker_rejectsBadArguments(Factories factories) {
        ProxyFactory factory = factories.factory;

        assertThatThrownBy(() -> factory.getInvoker((Object) "text", (Class) SampleService.class, URL))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("impl: java.lang.String (expected: an instance of dev.weft.rpc.proxy.SampleService)");
        assertThatThrownBy(() -> factory.getInvoker("text", String.class, URL))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("type: java.lang.String (expected: an interface)");
        assertThatThrownBy(() -> factory.getInvoker(new SampleServiceImpl(), SampleService.class, null))
                .isExactlyInstanceOf(NullPointerException.class)
                .hasMessage("url");
    }

    @ForEachFactory
    void invoker_acceptsAnyInvocationImplementation_byNameAndTypes(Factories factories) {
        Invoker<SampleService> invoker = invoker(factories);
        Invocation foreign = new Invocation() {
            @Override public String getMethodName() { return "add"; }
            @Override public Class<?>[] getParameterTypes() { return new Class<?>[] {int.class, int.class}; }
            @Override public Object[] getArguments() { return new Object[] {40, 2}; }
            @Override public Class<?> getReturnType() { return Object.class; }
            @Override public java.lang.reflect.Type getGenericReturnType() { return Object.class; }
            @Override public java.util.Map<String, String> getAttachments() { return java.util.Map.of(); }
            @Override public String getAttachment(String key) { return null; }
        };

        assertThat(invoker.invoke(foreign).getValue()).isEqualTo(42);
    }

    @ForEachFactory
    void invoker_invocationFromAProxyOfAnotherInterface_isResolvedByNameAndTypes(Factories factories) {
        Invoker<SampleService> target = invoker(factories);
        List<Object> results = new ArrayList<>();
        // A proxy of IntBinaryOperator whose calls are forwarded, unchanged, to the SampleService invoker:
        // the invocation names applyAsInt(int, int), which SampleService does not have.
        IntBinaryOperator proxy = factories.factory.getProxy(ProxyTargets.of(IntBinaryOperator.class).answering((invocation, provider) -> {
            results.add(catchThrowable(() -> target.invoke(invocation)));
            return RpcResult.of(0);
        }));

        proxy.applyAsInt(1, 2);

        assertThat(results).singleElement().isInstanceOf(RpcException.class)
                .extracting(Object::toString).asString().contains("SampleService.applyAsInt(int, int)");
    }

    /** A non-public implementation class: reachable only through the interface. */
    private static final class PrivateAdder implements IntBinaryOperator {
        @Override
        public int applyAsInt(int left, int right) {
            return left + right;
        }
    }
}
