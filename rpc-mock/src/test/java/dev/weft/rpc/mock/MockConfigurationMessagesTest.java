package dev.weft.rpc.mock;

import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.BrokenException;
import dev.weft.rpc.mock.fixtures.Counter;
import dev.weft.rpc.mock.fixtures.MissingDataException;
import dev.weft.rpc.mock.fixtures.UserNotFoundException;
import dev.weft.rpc.mock.fixtures.UserService;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The exact wording of configuration errors a user reads, in the cases the broader tests leave out. */
class MockConfigurationMessagesTest {

    private final MockSupport support = new MockSupport(new ReflectiveInvokers());

    private <T> MockInvoker<T> mock(Class<T> type, String key, String expression) {
        return MockInvoker.create(type, URL.valueOf("consumer://10.0.0.1/" + type.getName()).addParameter(key, expression),
                support);
    }

    @Test
    void interfaceLevelValue_thatOneMethodCannotTake_saysOneMethod() {
        assertThatThrownBy(() -> mock(Counter.class, "mock", "return 'x'"))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessage("mock: return 'x' (expected: a mock that every method of " + Counter.class.getName()
                        + " can take; at column 8: 1 method cannot)\n"
                        + "  - count(): a value of type int; Cannot deserialize value of type `int` from String \"x\":"
                        + " not a valid `int` value (set count.mock to give count its own mock)");
    }

    @Test
    void interfaceLevelMissingClass_isReportedOnce_notOncePerMethod() {
        MockConfigurationException e = (MockConfigurationException) org.assertj.core.api.Assertions.catchThrowable(
                () -> mock(UserService.class, "mock", "throw com.example.NoSuchFailure"));
        assertThat(e.getMessage()).isEqualTo("mock: throw com.example.NoSuchFailure (expected: a public, concrete"
                + " java.lang.Throwable class with a public (String) or () constructor; at column 7: class"
                + " com.example.NoSuchFailure not found by class loader 'app')");
        assertThat(e.getKey()).isEqualTo("mock");
    }

    @Test
    void checkedExceptionNotDeclared_listsWhatTheMethodDeclares() {
        assertThatThrownBy(() -> mock(UserService.class, "load.mock", "throw java.io.IOException"))
                .hasMessage("load.mock: throw java.io.IOException (expected: an unchecked exception or one declared by the"
                        + " method for load(String); at column 7: java.io.IOException is checked and load declares ["
                        + MissingDataException.class.getName() + "])");
    }

    @Test
    void exceptionWhoseConstructorFails_failsTheCallNamingTheClass() {
        MockInvoker<UserService> mock = mock(UserService.class, "count.mock", "force:throw " + BrokenException.class.getName());
        assertThatThrownBy(() -> mock.invoke(MockInvokerTest.call("count")))
                .isInstanceOf(RpcException.class)
                .hasMessage("Mock count.mock=force:throw " + BrokenException.class.getName() + " could not answer "
                        + UserService.class.getName() + ".count(): java.lang.IllegalStateException: mock exception "
                        + BrokenException.class.getName() + " could not be created: java.lang.IllegalStateException:"
                        + " broken exception constructor")
                .hasRootCauseMessage("broken exception constructor");
    }

    @Test
    void interfaceLevelReturnAlone_thatOneMethodCannotTake_pointsAtColumnOne() {
        assertThatThrownBy(() -> mock(Counter.class, "mock", "return"))
                .hasMessage("mock: return (expected: a mock that every method of " + Counter.class.getName()
                        + " can take; at column 1: 1 method cannot)\n"
                        + "  - count(): a value of type int; null cannot become the primitive int"
                        + " (set count.mock to give count its own mock)");
    }

    @Test
    void interfaceLevelThrowClass_coversMethodsTheInterfaceDoesNotDeclare() {
        MockInvoker<Counter> mock = mock(Counter.class, "mock", "force:throw " + UserNotFoundException.class.getName());
        RpcInvocation undeclared = new RpcInvocation("reset", new Class<?>[0], new Object[0], void.class, void.class);
        assertThat(mock.invoke(undeclared).getException()).isExactlyInstanceOf(UserNotFoundException.class)
                .hasMessage("mocked exception for service degradation: " + Counter.class.getName() + ".reset()");
    }
}
