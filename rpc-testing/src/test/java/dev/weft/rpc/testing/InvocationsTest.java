package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InvocationsTest {

    @Test
    void of_usesTheRealSignature_pickedByNameAndArity() {
        Invocation two = Invocations.of(Greeting.class, "greet", "ada", "en");
        Invocation count = Invocations.of(Greeting.class, "count");

        assertThat(two.getMethodName()).isEqualTo("greet");
        assertThat(two.getParameterTypes()).containsExactly(String.class, String.class);
        assertThat(two.getArguments()).containsExactly("ada", "en");
        assertThat(two.getReturnType()).isEqualTo(String.class);
        assertThat(count.getReturnType()).isEqualTo(int.class);
    }

    @Test
    void of_namesTheAvailableMethods_whenNoneFits() {
        assertThatThrownBy(() -> Invocations.of(Greeting.class, "greet", "a", "b", "c"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("method: greet/3 of dev.weft.rpc.testing.Greeting (expected: one of [count/0, greet/1, greet/2])");
    }

    @Test
    void named_buildsANoArgumentCall() {
        Invocation run = Invocations.named("run");

        assertThat(run.getMethodName()).isEqualTo("run");
        assertThat(run.getArguments()).isEmpty();
        assertThat(run.getParameterTypes()).isEmpty();
    }
}
