package dev.weft.rpc.examples.extension;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Invocations;
import dev.weft.rpc.testing.IsolatedDirectorExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(IsolatedDirectorExtension.class)
class TenantFilterTest {

    private final TenantFilter filter = new TenantFilter();
    private final FakeProvider<Inventory> acme = FakeProvider.of(Inventory.class, "p1").parameter("tenant", "acme").answering(7);

    private static RpcInvocation stock(String tenant) {
        RpcInvocation invocation = Invocations.of(Inventory.class, "stock", "sku-1");
        return tenant == null ? invocation : invocation.setAttachment("tenant", tenant);
    }

    @Test
    void callOfTheServedTenant_reachesTheProvider_unchanged() {
        RpcInvocation call = stock("acme");

        assertThat(filter.invoke(acme, call).getValue()).isEqualTo(7);
        assertThat(acme.invocations()).containsExactly(call);
    }

    @Test
    void anAdmittedCall_countsInFlight_untilItsResultEnds_notUntilInvokeReturns() {
        AsyncResult pending = AsyncResult.pending();
        acme.answering((invocation, self) -> pending);

        Result result = filter.invoke(acme, stock("acme"));
        assertThat(result.isDone()).isFalse();
        assertThat(filter.inFlight()).as("invoke returned, the call goes on").isEqualTo(1);

        pending.complete(RpcResult.of(9));
        assertThat(filter.inFlight()).isZero();
        assertThat(result.getValue()).isEqualTo(9);

        AsyncResult failing = AsyncResult.pending();
        acme.answering((invocation, self) -> failing);
        filter.invoke(acme, stock("acme"));
        failing.fail(new RpcException(RpcException.NETWORK_EXCEPTION, "lost"));
        assertThat(filter.inFlight()).as("a failure ends the call too").isZero();
    }

    @Test
    void callOfAnotherTenant_isForbidden_beforeTheServiceRuns() {
        assertThatThrownBy(() -> filter.invoke(acme, stock("globex")))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isForbidden()).isTrue())
                .hasMessage("tenant attachment of method stock: 'globex' (expected: 'acme', the tenant of provider p1:20880)");
        assertThat(acme.calls()).isZero();
    }

    @Test
    void callWithoutTenant_isForbidden_andSaysSo() {
        assertThatThrownBy(() -> filter.invoke(acme, stock(null)))
                .hasMessageStartingWith("tenant attachment of method stock: absent (expected: 'acme'");
        assertThat(acme.calls()).isZero();
    }

    @Test
    void providerWithoutTenant_isNotFiltered() {
        FakeProvider<Inventory> shared = FakeProvider.of(Inventory.class, "shared");

        assertThat(filter.invoke(shared, stock(null)).getValue()).isEqualTo("shared");
        assertThat(filter.invoke(shared, stock("anyone")).getValue()).isEqualTo("shared");
    }

    @Test
    void providerFailures_passThrough_unchanged() {
        RpcException refused = new RpcException(RpcException.NETWORK_EXCEPTION, "connection refused");
        acme.thenFail(refused);

        assertThatThrownBy(() -> filter.invoke(acme, stock("acme"))).isSameAs(refused);
    }

    @Test
    void activatesItself_onProvidersExportedForATenant_only(ExtensionDirector director) {
        var loader = director.getExtensionLoader(Filter.class);
        URL forAcme = acme.getUrl();
        URL plain = FakeProvider.of(Inventory.class, "shared").getUrl();

        assertThat(loader.getActivateExtensions(forAcme, "filter", "provider")).hasAtLeastOneElementOfType(TenantFilter.class);
        assertThat(loader.getActivateExtensions(plain, "filter", "provider")).noneMatch(TenantFilter.class::isInstance);
        assertThat(loader.getActivateExtensions(forAcme, "filter", "consumer")).noneMatch(TenantFilter.class::isInstance);
        assertThat(loader.getActivateExtensions(forAcme.addParameter("filter", "-tenant"), "filter", "provider"))
                .noneMatch(TenantFilter.class::isInstance);
    }
}
