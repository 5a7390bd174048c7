package dev.weft.rpc.mock;

import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code return} values for the optional types: {@code Optional}, its primitive siblings, and optionals inside futures. */
class OptionalReturnsTest {

    private final MockSupport support = new MockSupport(new ReflectiveInvokers());

    /** Every optional shape a method may return. */
    public interface Optionals {
        OptionalInt count();

        OptionalLong total();

        OptionalDouble ratio();

        Optional<String> nickname();

        CompletableFuture<Optional<String>> nicknameAsync();
    }

    private Object call(String method, String expression) throws Throwable {
        MockInvoker<Optionals> mock = MockInvoker.create(Optionals.class,
                URL.valueOf("consumer://10.0.0.1/" + Optionals.class.getName()).addParameter(method + ".mock", expression), support);
        return mock.invoke(new RpcInvocation(Optionals.class.getMethod(method), new Object[0])).recreate();
    }

    @Test
    void returnValue_forAPrimitiveOptional_isThatOptionalOfTheValue() throws Throwable {
        assertThat(call("count", "force:return 3")).isEqualTo(OptionalInt.of(3));
        assertThat(call("total", "force:return 12345678901")).isEqualTo(OptionalLong.of(12345678901L));
        assertThat(call("ratio", "force:return 0.5")).isEqualTo(OptionalDouble.of(0.5));
    }

    @Test
    void returnNull_forEveryOptional_isItsEmptyValue() throws Throwable {
        assertThat(call("count", "force:return null")).isEqualTo(OptionalInt.empty());
        assertThat(call("total", "force:return null")).isEqualTo(OptionalLong.empty());
        assertThat(call("ratio", "force:return")).isEqualTo(OptionalDouble.empty());
        assertThat(call("nickname", "force:return null")).isEqualTo(Optional.empty());
    }

    @Test
    void returnValue_thatDoesNotFitThePrimitiveOptional_isRejectedAtJoin_namingTheDeclaredType() {
        assertThatThrownBy(() -> call("count", "return 1.5"))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessage("count.mock: return 1.5 (expected: a value of type java.util.OptionalInt for count(); at column 8: "
                        + "the decimal 1.5 cannot become java.lang.Integer exactly (write an integer))");
        assertThatThrownBy(() -> call("total", "return 'many'"))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessageStartingWith("total.mock: return 'many' (expected: a value of type java.util.OptionalLong for total();")
                .hasMessageNotContaining("jackson-datatype-jdk8");
    }

    @Test
    void returnValue_forAFutureOfAnOptional_completesWithTheOptional() throws Throwable {
        assertThat(call("nicknameAsync", "force:return ann")).isEqualTo(Optional.of("ann"));
        assertThat(call("nicknameAsync", "force:return null")).isEqualTo(Optional.empty());
        assertThat(call("nicknameAsync", "force:return empty")).isEqualTo(Optional.empty());
    }
}
