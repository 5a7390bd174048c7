package dev.weft.rpc.proxy;

import dev.weft.rpc.common.RpcResult;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.concurrent.TimeoutException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** A checked exception is rethrown as is only when the method declares it, also when it declares several. */
class ProxyDeclaredExceptionsTest {

    @ForEachFactory
    void checkedExceptionNotAmongSeveralDeclared_isWrapped(Factories factories) {
        TimeoutException undeclared = new TimeoutException("not declared by load");
        SampleService proxy = factories.factory.getProxy(ProxyTargets.of(SampleService.class).answering(
                (invocation, provider) -> RpcResult.ofException(undeclared)));

        Throwable thrown = catchThrowable(() -> proxy.load("key"));

        assertThat(thrown).isExactlyInstanceOf(UndeclaredThrowableException.class)
                .hasMessage("dev.weft.rpc.proxy.SampleService.load(java.lang.String) threw undeclared checked "
                        + "exception java.util.concurrent.TimeoutException");
        assertThat(thrown.getCause()).isSameAs(undeclared);
    }

    /** Declares {@code run()} throwing {@code IOException}. */
    public interface ReadsFiles {
        void run() throws IOException;
    }

    /** Declares {@code run()} throwing {@code TimeoutException}. */
    public interface Waits {
        void run() throws TimeoutException;
    }

    /** Inherits both: {@code run()} may throw only what both declare (here nothing checked). */
    public interface ReadsAndWaits extends ReadsFiles, Waits {
    }

    /** Inherits both in the other order. */
    public interface WaitsAndReads extends Waits, ReadsFiles {
    }

    @ForEachFactory
    void methodInheritedWithTwoThrowsClauses_rethrowsOnlyWhatBothDeclare(Factories factories) {
        for (Class<?> type : List.of(ReadsAndWaits.class, WaitsAndReads.class)) {
            for (Exception checked : List.of(new IOException("io"), new FileNotFoundException("gone"), new TimeoutException("slow"))) {
                ReadsFiles proxy = (ReadsFiles) proxyThrowing(factories, type, checked);

                Throwable thrown = catchThrowable(proxy::run);

                assertThat(thrown).as("%s throwing %s", type.getSimpleName(), checked)
                        .isExactlyInstanceOf(UndeclaredThrowableException.class);
                assertThat(thrown.getCause()).isSameAs(checked);
            }
        }
    }

    private static <T> T proxyThrowing(Factories factories, Class<T> type, Exception exception) {
        return factories.factory.getProxy(ProxyTargets.of(type).answering((invocation, provider) -> RpcResult.ofException(exception)));
    }
}
