package dev.weft.rpc.common;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RpcInvocationTest {

    interface Greeter {
        List<String> greetAll(String prefix, int count);

        void ping();
    }

    @Test
    void methodConstructor_capturesSignatureAndReturnTypes() throws Exception {
        Method method = Greeter.class.getMethod("greetAll", String.class, int.class);

        RpcInvocation invocation = new RpcInvocation(method, new Object[] {"hi", 3});

        assertThat(invocation.getMethodName()).isEqualTo("greetAll");
        assertThat(invocation.getParameterTypes()).containsExactly(String.class, int.class);
        assertThat(invocation.getArguments()).containsExactly("hi", 3);
        assertThat(invocation.getReturnType()).isEqualTo(List.class);
        assertThat(invocation.getGenericReturnType()).isInstanceOf(ParameterizedType.class);
        ParameterizedType generic = (ParameterizedType) invocation.getGenericReturnType();
        assertThat(generic.getRawType()).isEqualTo(List.class);
        assertThat(generic.getActualTypeArguments()).containsExactly(String.class);
        assertThat(RpcInvocation.signature(invocation)).isEqualTo("greetAll(java.lang.String, int)");
        assertThat(invocation).hasToString("greetAll(String, int) args=2");
    }

    @Test
    void methodConstructor_voidMethodAndNullArgs() throws Exception {
        RpcInvocation invocation = new RpcInvocation(Greeter.class.getMethod("ping"), null);

        assertThat(invocation.getReturnType()).isEqualTo(void.class);
        assertThat(invocation.getGenericReturnType()).isEqualTo(void.class);
        assertThat(invocation.getArguments()).isEmpty();
        assertThat(invocation.getParameterTypes()).isEmpty();
    }

    @Test
    void nameConstructor_returnTypeUnknown() {
        RpcInvocation invocation = new RpcInvocation("sayHello", new Class<?>[] {String.class}, new Object[] {"x"});

        assertThat(invocation.getMethodName()).isEqualTo("sayHello");
        assertThat(invocation.getReturnType()).isEqualTo(Object.class);
        assertThat(invocation.getGenericReturnType()).isEqualTo(Object.class);
        assertThat(invocation.getParameterTypes()).containsExactly(String.class);
    }

    @Test
    void nameConstructor_nullsBecomeEmpty() {
        RpcInvocation invocation = new RpcInvocation("sayHello", null, null);

        assertThat(invocation.getParameterTypes()).isEmpty();
        assertThat(invocation.getArguments()).isEmpty();
        assertThatThrownBy(() -> new RpcInvocation(null, null, null))
                .isInstanceOf(NullPointerException.class).hasMessage("methodName");
        assertThatThrownBy(() -> new RpcInvocation((Method) null, null))
                .isInstanceOf(NullPointerException.class).hasMessage("method");
    }

    @Test
    void attachments_areAddedAndReadOnlyThroughGetter() {
        RpcInvocation invocation = new RpcInvocation("m", null, null);

        assertThat(invocation.getAttachments()).isEmpty();
        assertThat(invocation.getAttachment("trace")).isNull();

        invocation.setAttachment("trace", "abc").setAttachment("zone", "eu");

        assertThat(invocation.getAttachments()).isEqualTo(Map.of("trace", "abc", "zone", "eu"));
        assertThat(invocation.getAttachment("trace")).isEqualTo("abc");
        assertThatThrownBy(() -> invocation.getAttachments().put("x", "y"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> invocation.setAttachment(null, "v"))
                .isInstanceOf(NullPointerException.class).hasMessage("key");
    }
}
