package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

class FakeProvidersTest {

    private static final Invocation COUNT = Invocations.of(Greeting.class, "count");

    @Test
    void withWeights_namesProvidersInOrder_withTheirWeights() {
        List<FakeProvider<Greeting>> providers = FakeProviders.withWeights(Greeting.class, 1, 9, 6);

        assertThat(providers).extracting(FakeProvider::name).containsExactly("a", "b", "c");
        assertThat(providers).extracting(p -> p.getUrl().getParameter("weight", -1)).containsExactly(1, 9, 6);
        assertThat(providers).extracting(p -> p.getUrl().getAddress()).containsExactly("a:20880", "b:20880", "c:20880");
        assertThat(providers).allSatisfy(p -> assertThat(p.getInterface()).isEqualTo(Greeting.class));
    }

    @Test
    void withWeights_rejectsNoWeight_andNegativeWeights_namingTheIndex() {
        assertThatThrownBy(() -> FakeProviders.withWeights(Greeting.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("weights: [] (expected: at least one)");
        assertThatThrownBy(() -> FakeProviders.withWeights(Greeting.class, 3, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("weights[1]: -1 (expected: >= 0)");
    }

    @Test
    void of_buildsProvidersWithTheDefaultWeight() {
        List<FakeProvider<Greeting>> providers = FakeProviders.of(Greeting.class, 2);

        assertThat(providers).extracting(FakeProvider::name).containsExactly("a", "b");
        assertThat(providers).allSatisfy(p -> assertThat(p.getUrl().hasParameter("weight")).isFalse());
        assertThatThrownBy(() -> FakeProviders.of(Greeting.class, 0)).hasMessage("count: 0 (expected: > 0)");
    }

    @Test
    void named_keepsTheGivenNames() {
        assertThat(FakeProviders.named(Greeting.class, "eu-1", "us-1")).extracting(FakeProvider::name).containsExactly("eu-1", "us-1");
    }

    @Test
    void nameOf_countsLikeSpreadsheetColumns() {
        assertThat(FakeProviders.nameOf(0)).isEqualTo("a");
        assertThat(FakeProviders.nameOf(25)).isEqualTo("z");
        assertThat(FakeProviders.nameOf(26)).isEqualTo("aa");
        assertThat(FakeProviders.nameOf(27)).isEqualTo("ab");
        assertThat(FakeProviders.nameOf(26 + 26 * 26)).isEqualTo("aaa");
        assertThat(FakeProviders.of(Greeting.class, 100)).extracting(FakeProvider::name).doesNotHaveDuplicates();
    }

    @Test
    void invokers_isAnImmutableInvokerView_ofTheSameObjects() {
        List<FakeProvider<Greeting>> providers = FakeProviders.of(Greeting.class, 3);

        List<Invoker<Greeting>> invokers = FakeProviders.invokers(providers);

        assertThat(invokers).containsExactlyElementsOf(providers);
        assertThatThrownBy(() -> invokers.remove(0)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void callCounts_andTotal_followTheCalls() {
        List<FakeProvider<Greeting>> providers = FakeProviders.of(Greeting.class, 3);
        providers.get(1).invoke(COUNT);
        providers.get(1).invoke(COUNT);
        providers.get(2).invoke(COUNT);

        assertThat(FakeProviders.callCounts(providers)).containsExactly(entry("a", 0), entry("b", 2), entry("c", 1));
        assertThat(FakeProviders.totalCalls(providers)).isEqualTo(3);
    }

    @Test
    void providerUrls_buildTheKeysBalancersRead() {
        URL base = ProviderUrls.of(Greeting.class, "10.0.0.1");
        URL warming = ProviderUrls.withWarmup(ProviderUrls.withWeight(base, 50), Duration.ofSeconds(30), 1_000L);

        assertThat(base).isEqualTo(URL.valueOf("weft://10.0.0.1:20880/dev.weft.rpc.testing.Greeting"));
        assertThat(ProviderUrls.of(Greeting.class, "h", 7).getPort()).isEqualTo(7);
        assertThat(warming.getParameter("weight", 0)).isEqualTo(50);
        assertThat(warming.getParameter("warmup", 0L)).isEqualTo(30_000L);
        assertThat(warming.getParameter("timestamp", 0L)).isEqualTo(1_000L);
    }

    @Test
    void providerUrls_rejectBadValues_withTheRule() {
        URL base = ProviderUrls.of(Greeting.class, "h");

        assertThatThrownBy(() -> ProviderUrls.of(Greeting.class, "h", 70_000)).hasMessage("port: 70000 (expected: 0..65535)");
        assertThatThrownBy(() -> ProviderUrls.withWeight(base, -1)).hasMessage("weight: -1 (expected: >= 0)");
        assertThatThrownBy(() -> ProviderUrls.withWarmup(base, Duration.ofSeconds(-1), 1L)).hasMessage("warmup: PT-1S (expected: >= 0)");
        assertThatThrownBy(() -> ProviderUrls.withWarmup(base, Duration.ZERO, 0L))
                .hasMessage("timestamp: 0 (expected: > 0, ms since the epoch)");
    }
}
