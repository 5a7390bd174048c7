package dev.weft.rpc.mock;

import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.AbstractFailure;
import dev.weft.rpc.mock.fixtures.AbstractUserServiceMock;
import dev.weft.rpc.mock.fixtures.Echo;
import dev.weft.rpc.mock.fixtures.ExtendedUserService;
import dev.weft.rpc.mock.fixtures.UserService;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What {@link MockInvoker} checks and answers beyond the common forms: classes that cannot be
 * instantiated, overloads, methods the interface does not declare, columns in expressions with
 * leading blanks, and how a configuration is rendered in logs.
 */
class MockChecksAndOverloadsTest {

    private static final String USERS = UserService.class.getName();
    private static final String FIXTURES = "dev.weft.rpc.mock.fixtures.";

    private final MockSupport support = new MockSupport(new ReflectiveInvokers());

    private <T> MockInvoker<T> mock(Class<T> type, String... keyValues) {
        URL url = URL.valueOf("consumer://10.0.0.1/" + type.getName());
        for (int i = 0; i < keyValues.length; i += 2) {
            url = url.addParameter(keyValues[i], keyValues[i + 1]);
        }
        return MockInvoker.create(type, url, support);
    }

    // ---------------------------------------------------------------- classes that cannot be instantiated

    @Test
    void throwClass_notPublic_isRejected() {
        assertThatThrownBy(() -> mock(UserService.class, "count.mock", "throw " + FIXTURES + "HiddenException"))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessage("count.mock: throw " + FIXTURES + "HiddenException (expected: a public, concrete"
                        + " java.lang.Throwable class with a public (String) or () constructor; at column 7: "
                        + FIXTURES + "HiddenException is not public)");
    }

    @Test
    void throwClass_abstract_isRejected() {
        assertThatThrownBy(() -> mock(UserService.class, "count.mock", "throw " + AbstractFailure.class.getName()))
                .hasMessageEndingWith("at column 7: " + AbstractFailure.class.getName() + " is abstract)");
    }

    @Test
    void mockClass_abstractOrAnInterface_isRejected() {
        String expected = "(expected: a public, concrete class implementing " + USERS
                + " with a public no-argument constructor; at column 7: ";
        assertThatThrownBy(() -> mock(UserService.class, "mock", "force:" + AbstractUserServiceMock.class.getName()))
                .hasMessage("mock: force:" + AbstractUserServiceMock.class.getName() + " " + expected
                        + AbstractUserServiceMock.class.getName() + " is abstract)");
        assertThatThrownBy(() -> mock(UserService.class, "mock", "force:" + ExtendedUserService.class.getName()))
                .hasMessageEndingWith(expected + ExtendedUserService.class.getName() + " is abstract)");
    }

    @Test
    void mockClass_notPublic_isRejected() {
        assertThatThrownBy(() -> mock(UserService.class, "mock", "force:" + FIXTURES + "HiddenUserServiceMock"))
                .hasMessageEndingWith("at column 7: " + FIXTURES + "HiddenUserServiceMock is not public)");
    }

    @Test
    void throwClass_publicButInAPackageItsModuleDoesNotExport_isRejectedAtJoin_notAtTheFirstOutage() {
        String internal = "sun.reflect.generics.reflectiveObjects.NotImplementedException";
        assertThatThrownBy(() -> mock(UserService.class, "count.mock", "fail:throw " + internal))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessage("count.mock: fail:throw " + internal + " (expected: a public, concrete java.lang.Throwable"
                        + " class with a public (String) or () constructor; at column 12: " + internal
                        + " is in package sun.reflect.generics.reflectiveObjects, which module java.base does not export)");
    }

    @Test
    void mockClass_publicButInAPackageItsModuleDoesNotExport_isRejectedAtJoin() {
        String internal = "sun.security.util.ByteArrayLexOrder"; // a public Comparator<byte[]> with a public constructor
        assertThatThrownBy(() -> mock(java.util.Comparator.class, "mock", "force:" + internal))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessageEndingWith("at column 7: " + internal
                        + " is in package sun.security.util, which module java.base does not export)");
    }

    // ---------------------------------------------------------------- columns

    @Test
    void expressionWithLeadingBlanks_columnCountsFromTheFirstCharacterShown() {
        assertThatThrownBy(() -> mock(UserService.class, "count.mock", "   return 'many'"))
                .hasMessage("count.mock: return 'many' (expected: a value of type int for count(); at column 8: Cannot"
                        + " deserialize value of type `int` from String \"many\": not a valid `int` value)");
    }

    // ---------------------------------------------------------------- overloads and undeclared methods

    @Test
    void methodKey_coversEveryOverload_butNotASignatureTheInterfaceLacks() {
        MockInvoker<UserService> mock = mock(UserService.class, "total.mock", "force:return 5");
        assertThat(mock.invoke(MockInvokerTest.call("total", 1)).getValue()).isEqualTo(5L);
        assertThat(mock.invoke(MockInvokerTest.call("total", 1, 2)).getValue()).isEqualTo(5L);

        RpcInvocation unknownOverload = new RpcInvocation("total", new Class<?>[] {String.class}, new Object[] {"x"},
                long.class, long.class);
        assertThat(mock.modeFor(unknownOverload)).isEmpty();
        assertThatThrownBy(() -> mock.invoke(unknownOverload))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.getCode()).isEqualTo(RpcException.FORBIDDEN_EXCEPTION))
                .hasMessageStartingWith("No mock for " + USERS + ".total(java.lang.String) (expected: a 'mock' or"
                        + " 'total.mock' key in consumer://10.0.0.1/");
        assertThat(mock.modeFor(MockInvokerTest.call("count"))).isEmpty();
    }

    @Test
    void interfaceLevelMock_coversASignatureTheInterfaceLacks() {
        MockInvoker<UserService> mock = mock(UserService.class, "mock", "force:return empty");
        RpcInvocation unknownOverload = new RpcInvocation("total", new Class<?>[] {String.class}, new Object[] {"x"},
                long.class, long.class);
        assertThat(mock.invoke(unknownOverload).getValue()).isEqualTo(0L);
    }

    @Test
    void undeclaredMethod_whoseTypeTheValueCannotBecome_failsThatCallNamingTheMethod() {
        MockInvoker<Echo> mock = mock(Echo.class, "mock", "force:return 'x'");
        RpcInvocation age = new RpcInvocation("age", new Class<?>[0], new Object[0], int.class, int.class);
        assertThat(mock.modeFor(age)).contains(MockMode.FORCE);
        assertThatThrownBy(() -> mock.invoke(age))
                .isInstanceOf(RpcException.class)
                .hasMessageStartingWith("Mock mock=force:return 'x' could not answer " + Echo.class.getName()
                        + ".age(): java.lang.IllegalStateException: mock: force:return 'x' (expected: a value of type int"
                        + " for age(); at column 14: Cannot deserialize value of type `int` from String \"x\"");
        RpcInvocation label = new RpcInvocation("label", new Class<?>[0], new Object[0], String.class, String.class);
        assertThat(mock.invoke(label).getValue()).isEqualTo("x");
    }

    // ---------------------------------------------------------------- as an invoker, and in logs

    @Test
    void mockInvoker_isAnAlwaysAvailableInvokerOfTheInterface() {
        MockInvoker<UserService> mock = mock(UserService.class, "mock", "force:return empty");
        assertThat(mock.getInterface()).isSameAs(UserService.class);
        assertThat(mock.isAvailable()).isTrue();
        mock.destroy();
        assertThat(mock.invoke(MockInvokerTest.call("count")).getValue()).isEqualTo(0);
    }

    @Test
    void toString_namesTheInterfaceLevelMock_andEachMethodKeyOnce() {
        assertThat(mock(UserService.class)).hasToString("MockInvoker[" + USERS + ", no mock]");
        assertThat(mock(UserService.class, "mock", " force:return empty ", "total.mock", "return 1"))
                .hasToString("MockInvoker[" + USERS + ", mock=force:return empty, total.mock=return 1]");
        assertThat(mock(UserService.class, "count.mock", "return 1"))
                .hasToString("MockInvoker[" + USERS + ", count.mock=return 1]");
    }
}
