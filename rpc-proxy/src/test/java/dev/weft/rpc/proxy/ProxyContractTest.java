package dev.weft.rpc.proxy;

import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Consumer-side semantics of {@code getProxy}, identical for both factories. */
class ProxyContractTest {

    private static SampleService proxy(Factories factories, FakeProvider<SampleService> invoker) {
        return factories.factory.getProxy(invoker);
    }

    @ForEachFactory
    void proxy_buildsInvocation_withMethodArgumentsAndReturnTypes(Factories factories) throws Exception {
        FakeProvider<SampleService> invoker = ProxyTargets.of(SampleService.class).answering(List.of("ann"));
        Map<String, Integer> ages = Map.of("ann", 31);

        List<String> names = proxy(factories, invoker).names(ages);

        assertThat(names).containsExactly("ann");
        Invocation invocation = invoker.lastInvocation();
        Method method = SampleService.class.getMethod("names", Map.class);
        assertThat(invocation).isInstanceOf(RpcInvocation.class);
        assertThat(invocation.getMethodName()).isEqualTo("names");
        assertThat(invocation.getParameterTypes()).containsExactly(Map.class);
        assertThat(invocation.getArguments()).containsExactly(ages);
        assertThat(invocation.getArguments()[0]).isSameAs(ages);
        assertThat(invocation.getReturnType()).isEqualTo(List.class);
        assertThat(invocation.getGenericReturnType()).isEqualTo(method.getGenericReturnType());
        assertThat(invocation.getGenericReturnType().getTypeName()).isEqualTo("java.util.List<java.lang.String>");
    }

    @ForEachFactory
    void proxy_noArgumentMethod_sendsEmptyArguments(Factories factories) {
        FakeProvider<SampleService> invoker = ProxyTargets.of(SampleService.class).answering(List.of());

        proxy(factories, invoker).recorded();

        assertThat(invoker.lastInvocation().getArguments()).isEmpty();
        assertThat(invoker.lastInvocation().getParameterTypes()).isEmpty();
    }

    @ForEachFactory
    void proxy_primitives_areBoxedInAndUnboxedOut(Factories factories) {
        FakeProvider<SampleService> invoker = ProxyTargets.of(SampleService.class).answering((invocation, provider) -> {
            Object arg = invocation.getArguments()[0];
            switch (invocation.getMethodName()) {
                case "add": return RpcResult.of((Integer) arg + (Integer) invocation.getArguments()[1]);
                case "addLong": return RpcResult.of((Long) arg + (Long) invocation.getArguments()[1]);
                case "half": return RpcResult.of((Double) arg / 2);
                case "scale": return RpcResult.of((Float) arg * (Float) invocation.getArguments()[1]);
                case "negate": return RpcResult.of(!(Boolean) arg);
                case "nextChar": return RpcResult.of((char) ((Character) arg + 1));
                case "nextByte": return RpcResult.of((byte) ((Byte) arg + 1));
                case "nextShort": return RpcResult.of((short) ((Short) arg + 1));
                default: throw new AssertionError(invocation.getMethodName());
            }
        });
        SampleService proxy = proxy(factories, invoker);

        assertThat(proxy.add(40, 2)).isEqualTo(42);
        assertThat(proxy.addLong(Long.MAX_VALUE - 1, 1)).isEqualTo(Long.MAX_VALUE);
        assertThat(proxy.half(5.0)).isEqualTo(2.5);
        assertThat(proxy.scale(1.5f, 2f)).isEqualTo(3f);
        assertThat(proxy.negate(true)).isFalse();
        assertThat(proxy.nextChar('a')).isEqualTo('b');
        assertThat(proxy.nextByte((byte) 7)).isEqualTo((byte) 8);
        assertThat(proxy.nextShort((short) -1)).isEqualTo((short) 0);
        assertThat(invoker.invocations()).extracting(Invocation::getMethodName).containsExactly(
                "add", "addLong", "half", "scale", "negate", "nextChar", "nextByte", "nextShort");
        assertThat(invoker.invocations().get(1).getParameterTypes()).containsExactly(long.class, long.class);
        assertThat(invoker.invocations().get(1).getArguments()).containsExactly(Long.MAX_VALUE - 1, 1L);
    }

    @ForEachFactory
    void proxy_nullForPrimitiveReturn_failsNamingTheMethod(Factories factories) {
        SampleService proxy = proxy(factories, ProxyTargets.of(SampleService.class).answering((Object) null));

        assertThatThrownBy(() -> proxy.add(1, 2))
                .isExactlyInstanceOf(RpcException.class)
                .hasMessage("Result of dev.weft.rpc.proxy.SampleService.add(int, int): null "
                        + "(expected: an int, the primitive return type cannot be null)");
        assertThatThrownBy(() -> proxy.negate(true))
                .isExactlyInstanceOf(RpcException.class)
                .hasMessageContaining("SampleService.negate(boolean): null (expected: a boolean");
    }

    @ForEachFactory
    void proxy_valueOfWrongType_failsNamingTheMethodAndType(Factories factories) {
        SampleService proxy = proxy(factories, ProxyTargets.of(SampleService.class).answering("forty-two"));

        assertThatThrownBy(() -> proxy.add(1, 2))
                .isExactlyInstanceOf(RpcException.class)
                .hasMessage("Result of dev.weft.rpc.proxy.SampleService.add(int, int): java.lang.String "
                        + "(expected: an instance of int)");
        assertThatThrownBy(() -> proxy.reverse(new int[0]))
                .isExactlyInstanceOf(RpcException.class)
                .hasMessageContaining("(expected: an instance of int[])");
    }

    @ForEachFactory
    void proxy_voidMethod_ignoresResultValue(Factories factories) {
        FakeProvider<SampleService> invoker = ProxyTargets.of(SampleService.class).answering("ignored");

        proxy(factories, invoker).record("entry");

        assertThat(invoker.lastInvocation().getReturnType()).isEqualTo(void.class);
        assertThat(invoker.lastInvocation().getArguments()).containsExactly("entry");
    }

    @ForEachFactory
    void proxy_arraysAndVarargs_arePassedAsArrays(Factories factories) {
        int[] reversed = {3, 2, 1};
        FakeProvider<SampleService> invoker = ProxyTargets.of(SampleService.class).answering(
                (invocation, provider) -> RpcResult.of(invocation.getMethodName().equals("reverse") ? reversed : 6));
        SampleService proxy = proxy(factories, invoker);

        assertThat(proxy.reverse(new int[] {1, 2, 3})).isSameAs(reversed);
        assertThat(proxy.sum(1, 2, 3)).isEqualTo(6);

        Invocation varargs = invoker.lastInvocation();
        assertThat(varargs.getParameterTypes()).containsExactly(int[].class);
        assertThat(varargs.getArguments()).hasSize(1);
        assertThat((int[]) varargs.getArguments()[0]).containsExactly(1, 2, 3);
    }

    @ForEachFactory
    void proxy_overloads_sendTheirOwnParameterTypes(Factories factories) {
        FakeProvider<SampleService> invoker = ProxyTargets.of(SampleService.class).answering("x");
        SampleService proxy = proxy(factories, invoker);

        proxy.describe(1);
        proxy.describe(Integer.valueOf(1));
        proxy.describe("1");
        proxy.describe((Object) 1);
        proxy.describe(new long[] {1});

        assertThat(invoker.invocations()).extracting(i -> i.getParameterTypes()[0]).containsExactly(
                int.class, Integer.class, String.class, Object.class, long[].class);
    }

    @ForEachFactory
    void proxy_defaultMethod_goesToTheInvoker(Factories factories) {
        FakeProvider<SampleService> invoker = ProxyTargets.of(SampleService.class).answering("remote greeting");

        String greeting = proxy(factories, invoker).greet("ann");

        assertThat(greeting).isEqualTo("remote greeting");
        assertThat(invoker.lastInvocation().getMethodName()).isEqualTo("greet");
        assertThat(invoker.lastInvocation().getArguments()).containsExactly("ann");
    }

    @ForEachFactory
    void proxy_objectMethods_areAnsweredLocally(Factories factories) {
        FakeProvider<SampleService> invoker = ProxyTargets.of(SampleService.class).answering("x");
        SampleService proxy = proxy(factories, invoker);
        SampleService other = proxy(factories, invoker);

        assertThat(proxy.toString())
                .isEqualTo("dev.weft.rpc.proxy.SampleService proxy -> weft://user:***@10.0.0.1:20880/sample?proxy=javassist");
        assertThat(proxy.hashCode()).isEqualTo(System.identityHashCode(proxy));
        assertThat(proxy.equals(proxy)).isTrue();
        assertThat(proxy.equals(other)).isFalse();
        assertThat(proxy.equals(null)).isFalse();
        assertThat(invoker.invocations()).isEmpty();
    }

    @ForEachFactory
    void proxy_objectMethodsRedeclaredByTheInterface_areStillLocal(Factories factories) {
        FakeProvider<Named> invoker = ProxyTargets.of(Named.class).answering("remote");
        Named proxy = factories.factory.getProxy(invoker);

        assertThat(proxy.toString()).startsWith("dev.weft.rpc.proxy.ProxyContractTest$Named proxy -> weft://");
        assertThat(proxy.hashCode()).isEqualTo(System.identityHashCode(proxy));
        assertThat(proxy.equals(proxy)).isTrue();
        assertThat(proxy.name()).isEqualTo("remote");
        assertThat(invoker.invocations()).extracting(Invocation::getMethodName).containsExactly("name");
    }

    @ForEachFactory
    void proxy_declaredCheckedException_isRethrownAsIs(Factories factories) {
        CheckedFailure failure = new CheckedFailure("missing");
        IOException io = new IOException("disk");
        SampleService proxy = proxy(factories, ProxyTargets.of(SampleService.class).answering(
                (invocation, provider) -> RpcResult.ofException(invocation.getArguments()[0].equals("io") ? io : failure)));

        assertThat(catchThrowable(() -> proxy.load("missing"))).isSameAs(failure);
        assertThat(catchThrowable(() -> proxy.load("io"))).isSameAs(io);
    }

    @ForEachFactory
    void proxy_runtimeExceptionAndError_areRethrownAsIs(Factories factories) {
        IllegalStateException state = new IllegalStateException("state");
        AssertionError error = new AssertionError("error");
        SampleService proxy = proxy(factories, ProxyTargets.of(SampleService.class).answering(
                (invocation, provider) -> RpcResult.ofException(invocation.getArguments()[0].equals("state") ? state : error)));

        assertThat(catchThrowable(() -> proxy.risky("state"))).isSameAs(state);
        assertThat(catchThrowable(() -> proxy.risky("error"))).isSameAs(error);
    }

    @ForEachFactory
    void proxy_undeclaredCheckedException_isWrappedInUndeclaredThrowableException(Factories factories) {
        Exception undeclared = new Exception("undeclared");
        CheckedFailure notDeclaredByRisky = new CheckedFailure("not declared by risky");
        SampleService proxy = proxy(factories, ProxyTargets.of(SampleService.class).answering(
                (invocation, provider) -> RpcResult.ofException(invocation.getArguments()[0].equals("a") ? undeclared : notDeclaredByRisky)));

        Throwable thrown = catchThrowable(() -> proxy.risky("a"));

        assertThat(thrown).isExactlyInstanceOf(UndeclaredThrowableException.class)
                .hasMessage("dev.weft.rpc.proxy.SampleService.risky(java.lang.String) threw undeclared checked "
                        + "exception java.lang.Exception");
        assertThat(thrown.getCause()).isSameAs(undeclared);
        assertThat(catchThrowable(() -> proxy.risky("b")).getCause()).isSameAs(notDeclaredByRisky);
    }

    @ForEachFactory
    void proxy_rpcExceptionFromInvoker_reachesTheCaller(Factories factories) {
        RpcException timeout = new RpcException(RpcException.TIMEOUT_EXCEPTION, "too slow");
        SampleService proxy = proxy(factories, ProxyTargets.of(SampleService.class).answering((invocation, provider) -> {
            throw timeout;
        }));

        assertThat(catchThrowable(() -> proxy.add(1, 2))).isSameAs(timeout);
    }

    @ForEachFactory
    void proxy_invokerReturningNoResult_failsNamingMethodAndInvoker(Factories factories) {
        SampleService proxy = proxy(factories, ProxyTargets.of(SampleService.class).answering((invocation, provider) -> null));

        assertThatThrownBy(() -> proxy.greet("ann"))
                .isExactlyInstanceOf(RpcException.class)
                .hasMessage("Result of dev.weft.rpc.proxy.SampleService.greet(java.lang.String): null (expected: a Result "
                        + "from invoker weft://user:***@10.0.0.1:20880/sample?proxy=javassist)");
    }

    @ForEachFactory
    void proxy_genericMethod_sendsErasedTypes(Factories factories) {
        FakeProvider<SampleService> invoker = ProxyTargets.of(SampleService.class).answering("b");

        String max = proxy(factories, invoker).max("a", "b");

        assertThat(max).isEqualTo("b");
        assertThat(invoker.lastInvocation().getParameterTypes()).containsExactly(Comparable.class, Comparable.class);
        assertThat(invoker.lastInvocation().getReturnType()).isEqualTo(Comparable.class);
        assertThat(invoker.lastInvocation().getGenericReturnType().getTypeName()).isEqualTo("T");
    }

    @ForEachFactory
    void proxy_inheritedAndCovariantMethods_work(Factories factories) {
        FakeProvider<Child> invoker = ProxyTargets.of(Child.class).answering("child");
        Child proxy = factories.factory.getProxy(invoker);
        Parent asParent = proxy;

        assertThat(proxy.value()).isEqualTo("child");
        assertThat(asParent.value()).isEqualTo("child");
        assertThat(proxy.parentOnly()).isEqualTo("child");
        assertThat(invoker.invocations()).extracting(Invocation::getReturnType)
                .containsExactly(String.class, String.class, String.class);
    }

    @ForEachFactory
    void getProxy_rejectsNonInterface(Factories factories) {
        FakeProvider<String> invoker = ProxyTargets.of(String.class).answering("x");

        assertThatThrownBy(() -> factories.factory.getProxy(invoker))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("invoker.getInterface(): java.lang.String (expected: an interface)");
        assertThatThrownBy(() -> factories.factory.getProxy(null))
                .isExactlyInstanceOf(NullPointerException.class)
                .hasMessage("invoker");
    }

    @ForEachFactory
    void getProxy_rejectsSealedInterface(Factories factories) {
        FakeProvider<Shape> invoker = ProxyTargets.of(Shape.class).answering(1.0);

        assertThatThrownBy(() -> factories.factory.getProxy(invoker))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("invoker.getInterface(): dev.weft.rpc.proxy.ProxyContractTest$Shape (expected: an interface "
                        + "that is not sealed, a proxy class cannot be one of its permitted subclasses)");
    }

    @ForEachFactory
    void proxy_ofJdkInterface_works(Factories factories) {
        FakeProvider<java.util.function.IntBinaryOperator> invoker = ProxyTargets.of(java.util.function.IntBinaryOperator.class).answering(
                (invocation, provider) -> RpcResult.of((Integer) invocation.getArguments()[0] * (Integer) invocation.getArguments()[1]));

        java.util.function.IntBinaryOperator proxy = factories.factory.getProxy(invoker);

        assertThat(proxy.applyAsInt(6, 7)).isEqualTo(42);
        assertThat(proxy.toString()).startsWith("java.util.function.IntBinaryOperator proxy -> ");
    }

    /** Redeclares the Object methods; they must still never reach the invoker. */
    interface Named {
        String name();

        @Override
        String toString();

        @Override
        boolean equals(Object other);

        @Override
        int hashCode();
    }

    sealed interface Shape permits Square {
        double area();
    }

    record Square(double side) implements Shape {
        @Override
        public double area() {
            return side * side;
        }
    }

    interface Parent {
        Object value();

        String parentOnly();
    }

    interface Child extends Parent {
        @Override
        String value();
    }
}
