package dev.weft.rpc.protocol;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.filter.AccessLogFilter;
import dev.weft.rpc.protocol.filter.ActiveLimitFilter;
import dev.weft.rpc.protocol.filter.ContextFilter;
import dev.weft.rpc.protocol.filter.ExceptionFilter;
import dev.weft.rpc.protocol.filter.ExecuteLimitFilter;
import dev.weft.rpc.protocol.filter.ServerContextFilter;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FilterChainTest {

    private final ExtensionDirector director = new ExtensionDirector(FilterChainTest.class.getClassLoader());

    @AfterEach
    void close() {
        director.close();
    }

    /** Calls greet through the consumer chain of {@code url} and answers the filters it passed. */
    private String consumerVisits(String url) {
        Invoker<Greeter> chain = FilterChain.consumer(visitedEcho(url), director);
        return (String) chain.invoke(Calls.greet("ada")).getValue();
    }

    /** A provider at {@code url} answering the filters the call passed (its {@code VISITED} attachment). */
    private static FakeProvider<Greeter> visitedEcho(String url) {
        return FakeProvider.at(Greeter.class, URL.valueOf(url))
                .answering(Reply.computed(invocation -> String.valueOf(invocation.getAttachment(RecordingFilters.VISITED))));
    }

    @Test
    void consumerChain_runsActivatedFilters_inOrderThenName() {
        assertThat(consumerVisits("injvm://127.0.0.1/x?record=on")).isEqualTo("rec-first,rec-second,rec-third");
    }

    @Test
    void consumerChain_withoutTheActivatingKey_leavesKeyedFiltersOut() {
        assertThat(consumerVisits("injvm://127.0.0.1/x")).isEqualTo("null");
    }

    @Test
    void filterKey_addsNamedFilter_afterTheAutomaticOnes() {
        assertThat(consumerVisits("injvm://127.0.0.1/x?record=on&filter=rec-named"))
                .isEqualTo("rec-first,rec-second,rec-third,rec-named");
    }

    @Test
    void filterKey_defaultMarker_placesAutomaticOnesAmongNamedOnes() {
        assertThat(consumerVisits("injvm://127.0.0.1/x?record=on&filter=rec-named,default"))
                .isEqualTo("rec-named,rec-first,rec-second,rec-third");
    }

    @Test
    void filterKey_minusName_removesOneFilter() {
        assertThat(consumerVisits("injvm://127.0.0.1/x?record=on&filter=-rec-second"))
                .isEqualTo("rec-first,rec-third");
    }

    @Test
    void filterKey_minusDefault_removesEveryAutomaticFilter_keepsNamedOnes() {
        assertThat(consumerVisits("injvm://127.0.0.1/x?record=on&filter=-default,rec-third"))
                .isEqualTo("rec-third");
        Invoker<Greeter> chain = FilterChain.consumer(visitedEcho("injvm://127.0.0.1/x?filter=-default"), director);
        assertThat(chain).isInstanceOf(FakeProvider.class);
    }

    @Test
    void filterKey_namingAFilterOfTheOtherSide_isLeftOut() {
        assertThat(consumerVisits("injvm://127.0.0.1/x?filter=rec-provider,rec-named")).isEqualTo("rec-named");
    }

    @Test
    void activatedFilterWithoutAGroup_joinsBothSides_whetherActivatedOrNamed() {
        assertThat(consumerVisits("injvm://127.0.0.1/x?record-both=on")).isEqualTo("rec-both");
        assertThat(consumerVisits("injvm://127.0.0.1/x?filter=rec-both")).isEqualTo("rec-both");
        Invoker<Greeter> chain = FilterChain.provider(visitedEcho("injvm://127.0.0.1/x?record-both=on"), director);
        assertThat(chain.invoke(Calls.greet("ada")).getValue()).isEqualTo("rec-both");
    }

    @Test
    void providerChain_runsOnlyProviderFilters() {
        Invoker<Greeter> chain = FilterChain.provider(visitedEcho("injvm://127.0.0.1/x?record=on"), director);
        assertThat(chain.invoke(Calls.greet("ada")).getValue()).isEqualTo("rec-provider,rec-third");
    }

    @Test
    void builtInFilters_byDefault_areContextAndActivesOnConsumers_andContextAndExceptionOnProviders() {
        URL plain = URL.valueOf("injvm://127.0.0.1/x");
        assertThat(FilterChain.filters(plain, FilterChain.CONSUMER, director))
                .extracting(Object::getClass).containsExactly(ContextFilter.class, ActiveLimitFilter.class);
        assertThat(FilterChain.filters(plain, FilterChain.PROVIDER, director))
                .extracting(Object::getClass).containsExactly(ServerContextFilter.class, ExceptionFilter.class);
    }

    @Test
    void builtInFilters_keyedOnes_joinWhenTheirKeyIsSet_inDocumentedOrder() {
        URL provider = URL.valueOf("injvm://127.0.0.1/x?accesslog=true&executes=4");
        assertThat(FilterChain.filters(provider, FilterChain.PROVIDER, director))
                .extracting(Object::getClass)
                .containsExactly(AccessLogFilter.class, ServerContextFilter.class, ExceptionFilter.class, ExecuteLimitFilter.class);
    }

    @Test
    void activesFilter_isLeftOutOfAConsumerChain_byFilterKey() {
        URL consumer = URL.valueOf("injvm://127.0.0.1/x?filter=-actives");
        assertThat(FilterChain.filters(consumer, FilterChain.CONSUMER, director))
                .extracting(Object::getClass).containsExactly(ContextFilter.class);
    }

    @Test
    void chainScopedFilter_givesEachChainItsOwnFilter_onceWhenTheChainIsBuilt() {
        List<Invoker<?>> asked = new ArrayList<>();
        ChainScopedFilter counting = invoker -> {
            asked.add(invoker);
            return (next, invocation) -> next.invoke(invocation);
        };
        FakeProvider<Greeter> first = visitedEcho("injvm://127.0.0.1/x");
        FakeProvider<Greeter> second = visitedEcho("injvm://127.0.0.1/y");

        Invoker<Greeter> firstChain = FilterChain.wrap(first, List.of(counting));
        FilterChain.wrap(second, List.of(counting));
        firstChain.invoke(Calls.greet("ada"));
        firstChain.invoke(Calls.greet("bob"));

        assertThat(asked).containsExactly(first, second);
        assertThat(first.calls()).isEqualTo(2);
    }

    @Test
    void chainScopedFilter_invokedOutsideAChain_failsNamingTheWayToUseIt() {
        Filter actives = director.getExtensionLoader(Filter.class).getExtension(ActiveLimitFilter.NAME);
        assertThatThrownBy(() -> actives.invoke(visitedEcho("injvm://127.0.0.1/x?actives=1"), Calls.greet("ada")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Filter " + ActiveLimitFilter.class.getName() + " invoked outside a chain (expected: the filter"
                        + " its forChain returns, as FilterChain.wrap builds; it keeps state per chain)");
    }

    @Test
    void checkKeys_checksEveryFilterOfTheSide_evenOnesTheUrlLeavesOut() {
        URL rule = URL.valueOf("override://0.0.0.0/x?filter=-default&sayHello.actives=-2");
        assertThatThrownBy(() -> FilterChain.checkKeys(rule, FilterChain.CONSUMER, director))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL parameter sayHello.actives: -2 (expected: >= 0, 0 means no limit) in " + rule);
        URL busy = URL.valueOf("override://0.0.0.0/x?executes=many");
        assertThatThrownBy(() -> FilterChain.checkKeys(busy, FilterChain.PROVIDER, director))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("executes: many (expected: an integer");
    }

    @Test
    void checkKeys_createsNoFilterThatReadsNoKeys_soOneThatCannotBeBuiltDoesNotFailTheCheck() {
        FilterChain.checkKeys(URL.valueOf("override://0.0.0.0/x?actives=3"), FilterChain.CONSUMER, director);
        FilterChain.checkKeys(URL.valueOf("override://0.0.0.0/x?executes=3"), FilterChain.PROVIDER, director);
        assertThatThrownBy(() -> FilterChain.checkKeys(URL.valueOf("override://0.0.0.0/x?actives=-3"), FilterChain.CONSUMER,
                director)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("actives: -3 (expected: >= 0");
        assertThatThrownBy(() -> consumerVisits("injvm://127.0.0.1/x?filter=rec-unbuildable"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("licence server unreachable");
    }

    @Test
    void checkKeys_ignoresKeysOfTheOtherSide_andAcceptsGoodValues() {
        FilterChain.checkKeys(URL.valueOf("override://0.0.0.0/x?executes=many&actives=3"), FilterChain.CONSUMER, director);
        FilterChain.checkKeys(URL.valueOf("override://0.0.0.0/x?actives=many&executes=0"), FilterChain.PROVIDER, director);
        assertThatThrownBy(() -> FilterChain.checkKeys(URL.valueOf("override://0.0.0.0/x"), "both", director))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("filter group: both (expected: consumer, provider or call)");
    }

    @Test
    void filterKey_unknownName_failsNamingTheAvailableFilters() {
        assertThatThrownBy(() -> consumerVisits("injvm://127.0.0.1/x?filter=acitves"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No extension 'acitves'")
                .hasMessageContaining("actives");
    }

    @Test
    void filterKey_removingAnUnknownName_failsInsteadOfKeepingTheFilterOn() {
        assertThatThrownBy(() -> consumerVisits("injvm://127.0.0.1/x?filter=-acitves"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No extension 'acitves'")
                .hasMessageContaining("did you mean 'actives'?");
    }

    @Test
    void keyedFilterSwitchedOff_byAValueItsKeyDoesNotAccept_failsLikeAnyBadValue() {
        for (String off : List.of("off", "null", "0")) {
            assertThatThrownBy(() -> FilterChain.filters(URL.valueOf("injvm://127.0.0.1/x?accesslog=" + off),
                    FilterChain.PROVIDER, director))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("accesslog: " + off + " (expected: true or false)");
        }
        assertThatThrownBy(() -> FilterChain.filters(URL.valueOf("injvm://127.0.0.1/x?greet.executes=null"),
                FilterChain.PROVIDER, director))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("greet.executes: null");
        assertThat(FilterChain.filters(URL.valueOf("injvm://127.0.0.1/x?accesslog=false&executes=0"), FilterChain.PROVIDER,
                director)).extracting(Object::getClass).containsExactly(ServerContextFilter.class, ExceptionFilter.class);
    }

    @Test
    void badKeyValue_failsWhenTheChainIsBuilt() {
        assertThatThrownBy(() -> FilterChain.consumer(visitedEcho("injvm://127.0.0.1/x?greet.actives=-1"), director))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("greet.actives: -1 (expected: >= 0");
        assertThatThrownBy(() -> FilterChain.provider(visitedEcho("injvm://127.0.0.1/x?executes=many"), director))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("executes: many (expected: an integer");
        assertThatThrownBy(() -> FilterChain.provider(visitedEcho("injvm://127.0.0.1/x?accesslog=yes"), director))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("accesslog: yes (expected: true or false");
    }

    @Test
    void filters_unknownSide_isRejected() {
        assertThatThrownBy(() -> FilterChain.filters(URL.valueOf("injvm://127.0.0.1/x"), "both", director))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("filter group: both (expected: consumer, provider or call)");
    }

    @Test
    void chain_answersNodeQueries_fromTheInvokerInside() {
        FakeProvider<Greeter> inner = visitedEcho("injvm://127.0.0.1/x?record=on");
        Invoker<Greeter> chain = FilterChain.consumer(inner, director);
        assertThat(chain).isNotSameAs(inner);
        assertThat(chain.getUrl()).isSameAs(inner.getUrl());
        assertThat(chain.getInterface()).isEqualTo(Greeter.class);
        assertThat(chain.isAvailable()).isTrue();
        chain.destroy();
        assertThat(inner.isDestroyed()).isTrue();
        assertThat(chain.isAvailable()).isFalse();
    }

    @Test
    void wrap_withNoFilters_returnsTheInvokerItself() {
        FakeProvider<Greeter> inner = visitedEcho("injvm://127.0.0.1/x");
        assertThat(FilterChain.wrap(inner, List.of())).isSameAs(inner);
    }

    @Test
    void wrap_callsFiltersInListOrder() {
        List<Filter> filters = List.of(new RecordingFilters.Second(), new RecordingFilters.First());
        Invoker<Greeter> chain = FilterChain.wrap(visitedEcho("injvm://127.0.0.1/x"), filters);
        RpcInvocation invocation = Calls.greet("ada");
        assertThat(chain.invoke(invocation).getValue()).isEqualTo("rec-second,rec-first");
    }
}
