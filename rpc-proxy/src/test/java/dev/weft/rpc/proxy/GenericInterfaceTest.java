package dev.weft.rpc.proxy;

import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.testing.FakeProvider;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A service interface that fixes the type arguments of a generic super-interface. */
class GenericInterfaceTest {

    /** A generic repository; the service interfaces below fix {@code T}. */
    public interface Repository<T> {
        T get(long id);

        List<T> all();

        Map<String, T> byName();
    }

    /** Fixes {@code T} to {@code String}; declares nothing itself. */
    public interface Names extends Repository<String> {
    }

    @ForEachFactory
    void proxy_valueOfAnotherTypeThanTheResolvedTypeArgument_isRpcExceptionNamingTheMethod(Factories factories) {
        FakeProvider<Names> invoker = ProxyTargets.of(Names.class).answering(42);
        Names names = factories.factory.getProxy(invoker);

        assertThatThrownBy(() -> names.get(1))
                .isExactlyInstanceOf(RpcException.class)
                .hasMessage("Result of dev.weft.rpc.proxy.GenericInterfaceTest$Names.get(long): java.lang.Integer"
                        + " (expected: an instance of java.lang.String)");
    }

    @ForEachFactory
    void proxy_invocationCarriesTheGenericReturnType_resolvedAgainstTheServiceInterface(Factories factories) {
        FakeProvider<Names> invoker = ProxyTargets.of(Names.class).answering((invocation, provider) -> RpcResult.of(
                "get".equals(invocation.getMethodName()) ? "ann" : "all".equals(invocation.getMethodName()) ? List.of("ann") : Map.of()));
        Names names = factories.factory.getProxy(invoker);

        assertThat(names.get(1)).isEqualTo("ann");
        assertThat(invoker.lastInvocation().getGenericReturnType()).isEqualTo(String.class);
        assertThat(names.all()).containsExactly("ann");
        assertThat(invoker.lastInvocation().getGenericReturnType().getTypeName()).isEqualTo("java.util.List<java.lang.String>");
        assertThat(names.byName()).isEmpty();
        assertThat(invoker.lastInvocation().getGenericReturnType().getTypeName())
                .isEqualTo("java.util.Map<java.lang.String, java.lang.String>");
    }

    @ForEachFactory
    void roundTrip_throughTheGenericSuperInterface_reachesTheImplementation(Factories factories) {
        Names impl = new Names() {
            @Override
            public String get(long id) {
                return "user-" + id;
            }

            @Override
            public List<String> all() {
                return List.of("a", "b");
            }

            @Override
            public Map<String, String> byName() {
                return Map.of("a", "b");
            }
        };
        Repository<String> proxy = factories.factory.getProxy(factories.factory.getInvoker(impl, Names.class,
                URL.valueOf("weft://127.0.0.1:20880/names")));

        assertThat(proxy.get(7)).isEqualTo("user-7");
        assertThat(proxy.all()).containsExactly("a", "b");
        assertThat(proxy.byName()).containsEntry("a", "b");
    }
}
