package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DelegatingRepliesTest {

    /** Greets in English; refuses blank names the way a service refuses input. */
    private static final class English implements Greeting {
        private final AtomicInteger counted = new AtomicInteger();

        @Override
        public String greet(String name) {
            if (name.isBlank()) {
                throw new IllegalArgumentException("name: '" + name + "' (expected: not blank)");
            }
            return "hello " + name;
        }

        @Override
        public String greet(String name, String language) {
            return language + ": " + name;
        }

        @Override
        public int count() {
            return counted.incrementAndGet();
        }
    }

    @Test
    void implementation_callsTheMethodNamedByTheInvocation_withItsArguments() {
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a")
                .answering(DelegatingReplies.implementation(Greeting.class, new English()));

        assertThat(a.invoke(Invocations.of(Greeting.class, "greet", "ada")).getValue()).isEqualTo("hello ada");
        assertThat(a.invoke(Invocations.of(Greeting.class, "greet", "ada", "fr")).getValue()).isEqualTo("fr: ada");
        assertThat(a.invoke(Invocations.of(Greeting.class, "count")).getValue()).isEqualTo(1);
        assertThat(a.methods()).containsExactly("greet", "greet", "count");
    }

    @Test
    void implementation_serviceException_isCarriedInTheResult_notThrown() {
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a")
                .answering(DelegatingReplies.implementation(Greeting.class, new English()));

        Result result = a.invoke(Invocations.of(Greeting.class, "greet", " "));

        assertThat(result.hasException()).isTrue();
        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("name: ' ' (expected: not blank)");
    }

    @Test
    void implementation_scriptedFailuresComeFirst_thenTheServiceAnswers() {
        English service = new English();
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a")
                .answering(DelegatingReplies.implementation(Greeting.class, service))
                .thenFail(Reply.networkError());

        assertThatThrownBy(() -> a.invoke(Invocations.of(Greeting.class, "count")))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNetwork()).isTrue());
        assertThat(a.invoke(Invocations.of(Greeting.class, "count")).getValue()).isEqualTo(1);
        assertThat(service.counted).hasValue(1);
    }

    @Test
    void implementation_methodTheInterfaceLacks_failsNamingTheMethodsItHas() {
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a")
                .answering(DelegatingReplies.implementation(Greeting.class, new English()));

        assertThatThrownBy(() -> a.invoke(Invocations.named("wave")))
                .isInstanceOf(RpcException.class)
                .hasMessageStartingWith("method: wave[] (expected: a method of dev.weft.rpc.testing.Greeting, one of [")
                .hasMessageContaining("public abstract int dev.weft.rpc.testing.Greeting.count()");
    }

    @Test
    void implementation_refusesAClassForType_andAnObjectOfTheWrongType() {
        assertThatThrownBy(() -> DelegatingReplies.implementation(String.class, "text"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("type: java.lang.String (expected: a service interface)");
        @SuppressWarnings({"unchecked", "rawtypes"})
        Class<Greeting> lying = (Class) Runnable.class;
        assertThatThrownBy(() -> DelegatingReplies.implementation(lying, new English()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("implementation: dev.weft.rpc.testing.DelegatingRepliesTest$English "
                        + "(expected: an implementation of java.lang.Runnable)");
    }

    @Test
    void invoker_passesTheInvocation_andReturnsOrThrowsWhatTheTargetDoes() {
        FakeProvider<Greeting> real = FakeProvider.of(Greeting.class, "real").thenFail(Reply.timeout());
        Invoker<Greeting> front = FakeProvider.of(Greeting.class, "front").answering(DelegatingReplies.invoker(real));

        assertThatThrownBy(() -> front.invoke(Invocations.of(Greeting.class, "count")))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue())
                .hasMessage("scripted timeout at fake provider real (method count)");
        assertThat(front.invoke(Invocations.of(Greeting.class, "greet", "ada")).getValue()).isEqualTo("real");
        assertThat(real.methods()).containsExactly("count", "greet");
    }
}
