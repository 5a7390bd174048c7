package dev.weft.rpc.mock;

import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.User;
import dev.weft.rpc.proxy.JavassistProxyFactory;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Mocks of service interfaces shaped by inheritance: generic super-interfaces, redeclared Object methods. */
class MockInterfaceShapesTest {

    private final MockSupport support = new MockSupport(new ReflectiveInvokers());

    /** A generic repository; the service interfaces below fix {@code T}. */
    public interface Repository<T> {
        T get(long id);

        List<T> all();
    }

    /** Fixes {@code T} to {@code String}. */
    public interface Names extends Repository<String> {
    }

    /** Fixes {@code T} to a bean. */
    public interface Users extends Repository<User> {
    }

    /** Redeclares the methods a proxy answers itself. */
    public interface Labelled {
        String label();

        @Override
        int hashCode();

        @Override
        boolean equals(Object other);

        @Override
        String toString();
    }

    /** Declares {@code value()} returning {@code Object}. */
    public interface Plain {
        Object value();
    }

    /** Declares {@code value()} returning {@code String}. */
    public interface Named {
        String value();
    }

    /** Inherits both {@code value()}s, the less specific first: its callers get a {@code String}. */
    public interface PlainAndNamed extends Plain, Named {
    }

    /** Declares {@code run()} throwing {@code IOException}. */
    public interface ReadsFiles {
        void run() throws java.io.IOException;
    }

    /** Declares {@code run()} throwing {@code TimeoutException}. */
    public interface Waits {
        void run() throws java.util.concurrent.TimeoutException;
    }

    /** Inherits both {@code run()}s: its callers can be thrown neither checked exception. */
    public interface ReadsAndWaits extends ReadsFiles, Waits {
    }

    private <T> MockInvoker<T> mock(Class<T> type, String key, String expression) {
        return MockInvoker.create(type, URL.valueOf("consumer://10.0.0.1/" + type.getName()).addParameter(key, expression), support);
    }

    private static Object call(MockInvoker<?> mock, Class<?> type, String method, Class<?>... parameterTypes) throws Throwable {
        Object[] args = parameterTypes.length == 0 ? new Object[0] : new Object[] {1L};
        return mock.invoke(new RpcInvocation(type.getMethod(method, parameterTypes), args)).recreate();
    }

    @Test
    void returnValue_ofAGenericSuperInterfaceMethod_becomesTheTypeArgumentOfTheServiceInterface() throws Throwable {
        Object user = call(mock(Users.class, "get.mock", "force:return {\"name\":\"ann\",\"age\":3}"), Users.class, "get", long.class);
        assertThat(user).isInstanceOf(User.class);
        assertThat(((User) user).getName()).isEqualTo("ann");

        Object users = call(mock(Users.class, "all.mock", "force:return [{\"name\":\"bob\",\"age\":4}]"), Users.class, "all");
        assertThat((List<?>) users).singleElement().isInstanceOf(User.class);

        assertThat(call(mock(Names.class, "mock", "force:return empty"), Names.class, "get", long.class)).isEqualTo("");
    }

    @Test
    void returnValue_thatDoesNotFitTheTypeArgument_isRejectedAtJoin() {
        assertThatThrownBy(() -> mock(Names.class, "all.mock", "return [{\"a\": 1}]"))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessageStartingWith("all.mock: return [{\"a\": 1}] (expected: a value of type"
                        + " java.util.List<java.lang.String> for all(); at column 8:");
        assertThatThrownBy(() -> mock(Users.class, "get.mock", "return 42"))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessageStartingWith("get.mock: return 42 (expected: a value of type"
                        + " dev.weft.rpc.mock.fixtures.User for get(long); at column 8:");
    }

    @Test
    void methodInheritedWithTwoReturnTypes_isMockedForTheMostSpecific_throughARealProxy() {
        PlainAndNamed forced = new JavassistProxyFactory().getProxy(mock(PlainAndNamed.class, "value.mock", "force:return 42"));
        assertThat(forced.value()).isEqualTo("42");

        assertThatThrownBy(() -> mock(PlainAndNamed.class, "mock", "force:return {\"a\": 1}"))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessageContaining("at column 14: 1 method cannot)\n  - value(): a value of type java.lang.String;");
    }

    @Test
    void throwClass_mustFitTheThrowsClauseOfEveryInheritedVariant() {
        for (String checked : new String[] {"java.io.IOException", "java.util.concurrent.TimeoutException"}) {
            assertThatThrownBy(() -> mock(ReadsAndWaits.class, "run.mock", "force:throw " + checked))
                    .as(checked)
                    .isInstanceOf(MockConfigurationException.class)
                    .hasMessageContaining("(expected: an unchecked exception or one declared by the method for run(); at column 13: "
                            + checked + " is checked and run declares ");
        }
    }

    @Test
    void interfaceLevelMock_ignoresRedeclaredObjectMethods_whichTheProxyAnswersItself() throws Throwable {
        MockInvoker<Labelled> mock = mock(Labelled.class, "mock", "force:return null");

        assertThat(call(mock, Labelled.class, "label")).isNull();
        assertThat(mock.toString()).isEqualTo("MockInvoker[" + Labelled.class.getName() + ", mock=force:return null]");
    }

    @Test
    void methodKey_forARedeclaredObjectMethod_isRejectedAsNamingNoMethod() {
        assertThatThrownBy(() -> mock(Labelled.class, "hashCode.mock", "force:return 1"))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessage("hashCode.mock: force:return 1 (expected: a key <method>.mock naming a method of "
                        + Labelled.class.getName() + ": [label]; found no method 'hashCode')");
    }
}
