package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplyTest {

    private final FakeProvider<Greeting> provider = FakeProvider.of(Greeting.class, "eu-1");
    private final Invocation greet = Invocations.of(Greeting.class, "greet", "ada");

    @Test
    void value_computed_andProviderName_answer() {
        assertThat(Reply.value("hi").reply(greet, provider).getValue()).isEqualTo("hi");
        assertThat(Reply.value(null).reply(greet, provider).getValue()).isNull();
        assertThat(Reply.computed(inv -> "hello " + inv.getArguments()[0]).reply(greet, provider).getValue())
                .isEqualTo("hello ada");
        assertThat(Reply.providerName().reply(greet, provider).getValue()).isEqualTo("eu-1");
    }

    @Test
    void serviceException_isCarriedInTheResult_notThrown() {
        IllegalStateException thrown = new IllegalStateException("out of stock");

        Result result = Reply.serviceException(thrown).reply(greet, provider);

        assertThat(result.hasException()).isTrue();
        assertThat(result.getException()).isSameAs(thrown);
    }

    @Test
    void transportFailures_throwTheirCode_namingProviderAndMethod() {
        assertThatThrownBy(() -> Reply.networkError().reply(greet, provider))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNetwork()).isTrue())
                .hasMessage("scripted network failure at fake provider eu-1 (method greet)");
        assertThatThrownBy(() -> Reply.timeout().reply(greet, provider))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue())
                .hasMessage("scripted timeout at fake provider eu-1 (method greet)");
        assertThatThrownBy(() -> Reply.notProcessed().reply(greet, provider))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue());
        assertThatThrownBy(() -> Reply.rpcFailure(RpcException.BIZ_EXCEPTION).reply(greet, provider))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isBiz()).isTrue())
                .hasMessageContaining("business failure");
    }

    @Test
    void rpcFailure_rejectsUnknownCodes_whenScripted() {
        assertThatThrownBy(() -> Reply.rpcFailure(42))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("code: 42 (expected: one of RpcException's codes, 0..7)");
        assertThatThrownBy(() -> Reply.rpcFailure(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void failure_throwsRpcExceptions_andCarriesOtherThrowables() {
        RpcException network = new RpcException(RpcException.NETWORK_EXCEPTION, "reset");
        IOException checked = new IOException("disk full");

        assertThatThrownBy(() -> Reply.failure(network).reply(greet, provider)).isSameAs(network);
        assertThat(Reply.failure(checked).reply(greet, provider).getException()).isSameAs(checked);
    }

    @Test
    void throwing_throwsTheSameInstanceEveryTime() {
        IllegalArgumentException bug = new IllegalArgumentException("codec bug");
        Reply reply = Reply.throwing(bug);

        assertThatThrownBy(() -> reply.reply(greet, provider)).isSameAs(bug);
        assertThatThrownBy(() -> reply.reply(greet, provider)).isSameAs(bug);
    }
}
