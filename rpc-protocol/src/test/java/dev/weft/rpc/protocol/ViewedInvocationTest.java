package dev.weft.rpc.protocol;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.testing.FakeProvider;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ViewedInvocationTest {

    private static final URL REFER = URL.valueOf("injvm://127.0.0.1/x?actives=2");
    private static final URL VIEW = URL.valueOf("injvm://127.0.0.1/x?actives=5&weight=300");

    @Test
    void copy_keepsSignatureArgumentsAndAttachments_andLeavesTheOriginalAlone() {
        RpcInvocation original = Calls.greet("ada").setAttachment("trace", "t1");

        ViewedInvocation viewed = new ViewedInvocation(original, VIEW);
        viewed.setAttachment("timeout", "200");

        assertThat(viewed.getMethodName()).isEqualTo("greet");
        assertThat(viewed.getParameterTypes()).containsExactly(String.class);
        assertThat(viewed.getArguments()).containsExactly("ada");
        assertThat(viewed.getReturnType()).isEqualTo(String.class);
        assertThat(viewed.getAttachments()).containsOnlyKeys("trace", "timeout");
        assertThat(original.getAttachments()).containsOnlyKeys("trace");
    }

    @Test
    void viewUrl_isNoAttachment_soItNeverTravelsToTheProvider() {
        ViewedInvocation viewed = new ViewedInvocation(Calls.greet("ada"), VIEW);

        assertThat(viewed.getViewUrl()).isEqualTo(VIEW);
        assertThat(viewed.getAttachments()).isEmpty();
        assertThat(viewed.getAttachment("actives")).isNull();
    }

    @Test
    void urlOf_isTheViewUrl_whenTheCallCarriesOne_elseTheInvokersUrl() {
        FakeProvider<Greeter> invoker = FakeProvider.at(Greeter.class, REFER);
        Invocation plain = Calls.greet("ada");

        assertThat(ViewedInvocation.urlOf(invoker, plain)).isEqualTo(REFER);
        assertThat(ViewedInvocation.urlOf(invoker, new ViewedInvocation(plain, VIEW))).isEqualTo(VIEW);
    }
}
