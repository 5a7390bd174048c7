package dev.weft.rpc.protocol.filter;

import com.google.common.util.concurrent.UncheckedExecutionException;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Calls;
import dev.weft.rpc.protocol.Greeter;
import dev.weft.rpc.testing.FakeProvider;
import org.junit.jupiter.api.Test;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExceptionFilterTest {

    private final ExceptionFilter filter = new ExceptionFilter();

    /** What the consumer receives when {@code read} answers {@code thrown}. */
    private static Throwable answerOf(Throwable thrown) {
        return new ExceptionFilter().invoke(answering(RpcResult.ofException(thrown)), Calls.read("/tmp")).getException();
    }

    private static Invoker<Greeter> answering(Result result) {
        return FakeProvider.at(Greeter.class, URL.valueOf("injvm://127.0.0.1/dev.weft.rpc.protocol.Greeter"))
                .answering((invocation, provider) -> result);
    }

    @Test
    void declaredCheckedException_andItsSubclasses_passThrough() {
        IOException declared = new IOException("disk");
        assertThat(answerOf(declared)).isSameAs(declared);
        FileNotFoundException subclass = new FileNotFoundException("/tmp");
        assertThat(answerOf(subclass)).isSameAs(subclass);
    }

    @Test
    void undeclaredCheckedException_becomesBizRpcException_withClassNameMessageAndStack() {
        TimeoutException undeclared = new TimeoutException("slow disk");
        Throwable answer = answerOf(undeclared);
        assertThat(answer).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isBiz()).isTrue())
                .hasMessage("java.util.concurrent.TimeoutException: slow disk")
                .hasNoCause();
        assertThat(answer.getStackTrace()).isEqualTo(undeclared.getStackTrace());
    }

    @Test
    void jdkUncheckedExceptionsAndErrors_passThrough() {
        IllegalStateException unchecked = new IllegalStateException("closed");
        assertThat(answerOf(unchecked)).isSameAs(unchecked);
        StackOverflowError error = new StackOverflowError();
        assertThat(answerOf(error)).isSameAs(error);
    }

    @Test
    void uncheckedExceptionFromTheServiceInterfacesJar_passesThrough() {
        GreeterUnavailableException own = new GreeterUnavailableException("maintenance");
        assertThat(answerOf(own)).isSameAs(own);
    }

    @Test
    void uncheckedExceptionFromALibraryTheConsumerMayLack_becomesBizRpcException() {
        UncheckedExecutionException library = new UncheckedExecutionException("cache load failed", null);
        assertThat(answerOf(library)).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isBiz()).isTrue())
                .hasMessage("com.google.common.util.concurrent.UncheckedExecutionException: cache load failed");
    }

    @Test
    void undeclaredException_whoseGetMessageThrows_becomesBizRpcException_sayingSo() {
        Throwable answer = answerOf(new UnreadableMessageException());
        assertThat(answer).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isBiz()).isTrue())
                .hasMessage(UnreadableMessageException.class.getName()
                        + ": (no message: getMessage() threw java.lang.IllegalStateException: not loaded)");
    }

    @Test
    void undeclaredException_withAHugeMessage_becomesBizRpcException_withTheMessageCut() {
        Throwable answer = answerOf(new TimeoutException("x".repeat(1_000_000)));
        assertThat(answer).isInstanceOf(RpcException.class)
                .hasMessage("java.util.concurrent.TimeoutException: " + "x".repeat(ExceptionFilter.MAX_MESSAGE_CHARS)
                        + "... (" + (1_000_000 - ExceptionFilter.MAX_MESSAGE_CHARS) + " more characters)");
    }

    @Test
    void rpcException_passesThrough_withItsCode() {
        for (int code : new int[] {RpcException.BIZ_EXCEPTION, RpcException.NETWORK_EXCEPTION, RpcException.TIMEOUT_EXCEPTION,
                RpcException.FORBIDDEN_EXCEPTION}) {
            RpcException rpc = new RpcException(code, "no");
            assertThat(answerOf(rpc)).isSameAs(rpc);
        }
    }

    @Test
    void notProcessedOfANestedCall_answeredByTheService_becomesNetwork_soNoStrategyTakesTheCallForUnrun() {
        RpcException nested = new RpcException(RpcException.NOT_PROCESSED, "Server busy: executions of method stock");
        Throwable answer = answerOf(nested);
        assertThat(answer).isInstanceOfSatisfying(RpcException.class, e -> {
            assertThat(e.isNetwork()).isTrue();
            assertThat(e.isNotProcessed()).isFalse();
        }).hasMessage("dev.weft.rpc.common.RpcException: Server busy: executions of method stock "
                + "(NOT_PROCESSED from a call the service made; this call ran)");
        assertThat(answer.getStackTrace()).isEqualTo(nested.getStackTrace());
    }

    @Test
    void normalResult_andThrownFailures_areUntouched() {
        Result ok = RpcResult.of("hello");
        assertThat(filter.invoke(answering(ok), Calls.greet("ada"))).isSameAs(ok);
        Invoker<Greeter> throwing = GreeterProviders.at("injvm://127.0.0.1/x");
        assertThatThrownBy(() -> filter.invoke(throwing, Calls.farewell("ada"))).hasMessage("connection reset");
    }

    @Test
    void methodUnknownToTheInterface_treatsCheckedExceptionsAsUndeclared() {
        RpcInvocation unknown = new RpcInvocation("missing", new Class<?>[0], null);
        Result result = filter.invoke(answering(RpcResult.ofException(new IOException("disk"))), unknown);
        assertThat(result.getException()).isInstanceOf(RpcException.class).hasMessage("java.io.IOException: disk");
    }

    /** A checked exception whose message cannot be read (as when it is built lazily from missing state). */
    static final class UnreadableMessageException extends Exception {
        private static final long serialVersionUID = 1L;

        @Override
        public String getMessage() {
            throw new IllegalStateException("not loaded");
        }
    }

    /** An unchecked exception shipped with the service interface (same code source). */
    static final class GreeterUnavailableException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        GreeterUnavailableException(String message) {
            super(message);
        }
    }
}
