package dev.weft.rpc.proxy;

import dev.weft.rpc.common.RpcResult;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.concurrent.TimeoutException;

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
}
