package dev.weft.rpc.common;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RpcResultTest {

    @Test
    void of_value_recreateReturnsIt() throws Throwable {
        RpcResult result = RpcResult.of("hello");

        assertThat(result.getValue()).isEqualTo("hello");
        assertThat(result.hasException()).isFalse();
        assertThat(result.getException()).isNull();
        assertThat(result.recreate()).isEqualTo("hello");
        assertThat(result).hasToString("RpcResult[value=hello]");
    }

    @Test
    void of_null_isAValueResult() throws Throwable {
        RpcResult result = RpcResult.of(null);

        assertThat(result.hasException()).isFalse();
        assertThat(result.recreate()).isNull();
        assertThat(RpcResult.of(null)).isSameAs(result);
    }

    @Test
    void ofException_recreateThrowsTheSameInstance() {
        IOException failure = new IOException("disk full");
        RpcResult result = RpcResult.ofException(failure);

        assertThat(result.hasException()).isTrue();
        assertThat(result.getException()).isSameAs(failure);
        assertThat(result.getValue()).isNull();
        assertThatThrownBy(result::recreate).isSameAs(failure);
        assertThat(result).hasToString("RpcResult[exception=java.io.IOException: disk full]");
    }

    @Test
    void ofException_null_isRejected() {
        assertThatThrownBy(() -> RpcResult.ofException(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("exception: null (expected: a Throwable)");
    }
}
