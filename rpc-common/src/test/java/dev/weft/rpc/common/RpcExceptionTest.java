package dev.weft.rpc.common;

import org.junit.jupiter.api.Test;

import java.net.ConnectException;

import static org.assertj.core.api.Assertions.assertThat;

class RpcExceptionTest {

    @Test
    void codes_haveTheDocumentedValues() {
        assertThat(RpcException.UNKNOWN_EXCEPTION).isZero();
        assertThat(RpcException.NETWORK_EXCEPTION).isEqualTo(1);
        assertThat(RpcException.TIMEOUT_EXCEPTION).isEqualTo(2);
        assertThat(RpcException.BIZ_EXCEPTION).isEqualTo(3);
        assertThat(RpcException.FORBIDDEN_EXCEPTION).isEqualTo(4);
        assertThat(RpcException.SERIALIZATION_EXCEPTION).isEqualTo(5);
        assertThat(RpcException.NO_INVOKER_AVAILABLE).isEqualTo(6);
    }

    @Test
    void predicates_matchOnlyTheirCode() {
        for (int code = 0; code <= 6; code++) {
            RpcException e = new RpcException(code, "failed");
            assertThat(e.getCode()).isEqualTo(code);
            assertThat(e.isNetwork()).as("isNetwork for %d", code).isEqualTo(code == RpcException.NETWORK_EXCEPTION);
            assertThat(e.isTimeout()).as("isTimeout for %d", code).isEqualTo(code == RpcException.TIMEOUT_EXCEPTION);
            assertThat(e.isBiz()).as("isBiz for %d", code).isEqualTo(code == RpcException.BIZ_EXCEPTION);
            assertThat(e.isForbidden()).as("isForbidden for %d", code).isEqualTo(code == RpcException.FORBIDDEN_EXCEPTION);
            assertThat(e.isSerialization()).as("isSerialization for %d", code)
                    .isEqualTo(code == RpcException.SERIALIZATION_EXCEPTION);
            assertThat(e.isNoInvokerAvailable()).as("isNoInvokerAvailable for %d", code)
                    .isEqualTo(code == RpcException.NO_INVOKER_AVAILABLE);
        }
    }

    @Test
    void constructors_setMessageCodeAndCause() {
        ConnectException cause = new ConnectException("refused");

        assertThat(new RpcException("m")).hasMessage("m").hasNoCause()
                .extracting(RpcException::getCode).isEqualTo(RpcException.UNKNOWN_EXCEPTION);
        assertThat(new RpcException(RpcException.TIMEOUT_EXCEPTION, "slow")).hasMessage("slow").hasNoCause()
                .extracting(RpcException::getCode).isEqualTo(RpcException.TIMEOUT_EXCEPTION);
        assertThat(new RpcException(RpcException.NETWORK_EXCEPTION, cause))
                .hasMessage("java.net.ConnectException: refused").hasCause(cause)
                .extracting(RpcException::getCode).isEqualTo(RpcException.NETWORK_EXCEPTION);
        assertThat(new RpcException(RpcException.NETWORK_EXCEPTION, (Throwable) null)).hasMessage(null).hasNoCause();
        assertThat(new RpcException(RpcException.BIZ_EXCEPTION, "biz", cause)).hasMessage("biz").hasCause(cause)
                .extracting(RpcException::getCode).isEqualTo(RpcException.BIZ_EXCEPTION);
        assertThat(new RpcException("wrapped", cause)).hasMessage("wrapped").hasCause(cause)
                .extracting(RpcException::getCode).isEqualTo(RpcException.UNKNOWN_EXCEPTION);
    }

    @Test
    void isRuntimeException() {
        assertThat(new RpcException("m")).isInstanceOf(RuntimeException.class);
    }
}
