package dev.weft.rpc.mock;

import dev.weft.rpc.mock.internal.MockExpressionParser;
import dev.weft.rpc.cluster.DynamicDirectory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.NumberService;
import dev.weft.rpc.mock.fixtures.UserService;
import dev.weft.rpc.proxy.JavassistProxyFactory;
import dev.weft.rpc.testing.FakeProvider;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Mock behaviour at the edges: off switches, exact numbers, fatal errors, broken providers. */
class MockEdgeCasesTest {

    private final MockSupport support = new MockSupport(new ReflectiveInvokers());

    private <T> MockInvoker<T> mock(Class<T> type, String key, String expression) {
        return MockInvoker.create(type, URL.valueOf("consumer://10.0.0.1/" + type.getName()).addParameter(key, expression), support);
    }

    private static Object value(MockInvoker<?> mock, Class<?> type, String method) throws Throwable {
        Method m = type.getMethod(method);
        return mock.invoke(new RpcInvocation(m, new Object[0])).recreate();
    }

    // ---------------------------------------------------------------- off switches

    @Test
    void forceFalseAndFailFalse_turnMockingOff_likeFalse() {
        for (String off : new String[] {"false", "force:false", "fail:false", "force: false", "fail:FALSE"}) {
            assertThat(mock(UserService.class, "mock", off).isEmpty()).as(off).isTrue();
            assertThat(MockExpressionParser.isDisabled(off)).as(off).isTrue();
        }
        assertThat(mock(UserService.class, "sayHello.mock", "force:false").modeFor(MockInvokerTest.call("sayHello", "a"))).isEmpty();
    }

    @Test
    void falseFollowedByMore_neverSuggestsTheWordItself() {
        assertThatThrownBy(() -> mock(UserService.class, "mock", "force:false now"))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessageContaining("found 'false'; 'false' turns mocking off only on its own, or as force:false or fail:false")
                .hasMessageNotContaining("did you mean 'false'");
    }

    // ---------------------------------------------------------------- exact numbers

    @Test
    void decimalForAnIntegralType_isRejectedAtJoin() {
        assertThatThrownBy(() -> mock(NumberService.class, "total.mock", "return 1.5"))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessage("total.mock: return 1.5 (expected: a value of type long for total(); at column 8: "
                        + "the decimal 1.5 cannot become long exactly (write an integer))");
        assertThatThrownBy(() -> mock(NumberService.class, "count.mock", "return 2.0"))
                .hasMessage("count.mock: return 2.0 (expected: a value of type int for count(); at column 8: "
                        + "the decimal 2.0 cannot become int exactly (write an integer))");
        assertThatThrownBy(() -> mock(NumberService.class, "big.mock", "return 1.5"))
                .hasMessageEndingWith("the decimal 1.5 cannot become java.math.BigInteger exactly (write an integer))");
        assertThatThrownBy(() -> mock(NumberService.class, "totals.mock", "return [1, 1.5]"))
                .hasMessageStartingWith("totals.mock: return [1, 1.5] (expected: a value of type java.util.List<java.lang.Long>"
                        + " for totals(); at column 8: Cannot coerce Floating-point value (1.5) to `java.lang.Long` value");
    }

    @Test
    void bigDecimal_keepsEveryDigitAndItsScale() throws Throwable {
        assertThat(value(mock(NumberService.class, "price.mock", "return 0.12345678901234567890"), NumberService.class, "price"))
                .isEqualTo(new BigDecimal("0.12345678901234567890"));
        assertThat(value(mock(NumberService.class, "price.mock", "return 1.50"), NumberService.class, "price"))
                .isEqualTo(new BigDecimal("1.50"));
        assertThat(value(mock(NumberService.class, "big.mock", "return 123456789012345678901234567890"), NumberService.class, "big"))
                .isEqualTo(new BigInteger("123456789012345678901234567890"));
        assertThat(value(mock(NumberService.class, "total.mock", "return 9007199254740993"), NumberService.class, "total"))
                .isEqualTo(9007199254740993L);
    }

    @Test
    void floatingTypes_takeTheNearestValue_butNotOneOutOfRange() throws Throwable {
        assertThat(value(mock(NumberService.class, "ratio.mock", "return 0.1"), NumberService.class, "ratio")).isEqualTo(0.1d);
        assertThat(value(mock(NumberService.class, "small.mock", "return 2.5"), NumberService.class, "small")).isEqualTo(2.5f);
        assertThatThrownBy(() -> mock(NumberService.class, "small.mock", "return 1e40"))
                .hasMessage("small.mock: return 1e40 (expected: a value of type float for small(); at column 8: "
                        + "the number is out of the range of float)");
        assertThatThrownBy(() -> mock(NumberService.class, "ratio.mock", "return 1e400"))
                .hasMessageEndingWith("the number is out of the range of double)");
    }

    @Test
    void integralOutOfRange_isRejected() {
        assertThatThrownBy(() -> mock(NumberService.class, "total.mock", "return 9223372036854775808"))
                .hasMessageStartingWith("total.mock: return 9223372036854775808 (expected: a value of type long for total(); at column 8: ");
    }

    // ---------------------------------------------------------------- fatal errors

    @Test
    void throwVirtualMachineOrLinkageError_isRejectedAtJoin() {
        assertThatThrownBy(() -> mock(UserService.class, "mock", "throw java.lang.OutOfMemoryError"))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessage("mock: throw java.lang.OutOfMemoryError (expected: a public, concrete java.lang.Throwable class"
                        + " with a public (String) or () constructor, not a java.lang.VirtualMachineError; at column 7:"
                        + " java.lang.OutOfMemoryError is a java.lang.VirtualMachineError, which reports a broken JVM or"
                        + " class path, not a degraded service)");
        assertThatThrownBy(() -> mock(UserService.class, "mock", "throw java.lang.StackOverflowError"))
                .hasMessageContaining("java.lang.StackOverflowError is a java.lang.VirtualMachineError");
        assertThatThrownBy(() -> mock(UserService.class, "mock", "throw java.lang.NoClassDefFoundError"))
                .hasMessageContaining("java.lang.NoClassDefFoundError is a java.lang.LinkageError");
        assertThat(mock(UserService.class, "mock", "throw java.lang.AssertionError").invoke(MockInvokerTest.call("count"))
                .getException()).isExactlyInstanceOf(AssertionError.class);
    }

    // ---------------------------------------------------------------- broken providers

    @Test
    void failMode_providerReturningNullResult_isAnsweredByTheMock() {
        FakeProvider<UserService> provider = FakeProvider.of(UserService.class, "b").answering((invocation, fake) -> null);
        DynamicDirectory<UserService> directory = new DynamicDirectory<>(UserService.class,
                URL.valueOf("consumer://10.0.0.1/" + UserService.class.getName() + "?sayHello.mock=fail:return+'mocked'"));
        directory.setInvokers(List.of(provider));
        Invoker<UserService> joined = new MockClusterWrapper(new FirstInvokerCluster(), new JavassistProxyFactory()).join(directory);

        assertThat(joined.invoke(MockInvokerTest.call("sayHello", "ann")).getValue()).isEqualTo("mocked");
        assertThat(provider.calls()).isEqualTo(1);
        provider.answering("provider");
        assertThat(joined.invoke(MockInvokerTest.call("sayHello", "ann")).getValue()).isEqualTo("provider");
    }
}
