package dev.weft.rpc.examples;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConsumerUrlsTest {

    @Test
    void bareParameters_areAddedToTheBaseConsumerUrl() throws UsageException {
        URL url = ConsumerUrls.parse("cluster=failfast&loadbalance=p2c");

        assertThat(url.getProtocol()).isEqualTo("consumer");
        assertThat(url.getServiceInterface()).isEqualTo(GreetingService.class.getName());
        assertThat(url.getParameter("cluster")).isEqualTo("failfast");
        assertThat(url.getParameter("loadbalance")).isEqualTo("p2c");
    }

    @Test
    void leadingQuestionMarkAndPlus_areAccepted() throws UsageException {
        URL url = ConsumerUrls.parse("?mock=fail:return+fallback");

        assertThat(url.getParameter("mock")).isEqualTo("fail:return fallback");
    }

    @Test
    void fullUrl_isKept_andGetsThePathWhenItHasNone() throws UsageException {
        assertThat(ConsumerUrls.parse("consumer://10.1.2.3/x.Y?retries=1").getServiceInterface()).isEqualTo("x.Y");
        URL noPath = ConsumerUrls.parse("consumer://10.1.2.3?retries=1");
        assertThat(noPath.getServiceInterface()).isEqualTo(GreetingService.class.getName());
        assertThat(noPath.getHost()).isEqualTo("10.1.2.3");
    }

    @Test
    void emptyText_isTheBaseUrl() throws UsageException {
        assertThat(ConsumerUrls.parse("").getParameters()).isEmpty();
    }

    @Test
    void malformedUrl_isAUsageError_namingTheUrl() {
        assertThatThrownBy(() -> ConsumerUrls.parse("consumer://host:99999/x"))
                .isInstanceOf(UsageException.class)
                .hasMessageStartingWith("--url: URL: consumer://host:99999/x (");
    }

    @Test
    void numericKeys_areCheckedUpFront_methodLevelToo() {
        assertThatThrownBy(() -> ConsumerUrls.parse("retries=two"))
                .hasMessage("--url retries: 'two' (expected: an integer (negative means 0)) in "
                        + ConsumerUrls.BASE + "?retries=two");
        assertThatThrownBy(() -> ConsumerUrls.parse("greet.timeout=0"))
                .hasMessageStartingWith("--url greet.timeout: '0' (expected: milliseconds >= 1)");
        assertThatThrownBy(() -> ConsumerUrls.parse("cluster=broadcast&broadcast.fail.percent=101"))
                .hasMessageStartingWith("--url broadcast.fail.percent: '101' (expected: 0 to 100)");
    }

    @Test
    void validNumbers_andUnknownKeys_pass() throws UsageException {
        URL url = ConsumerUrls.parse("retries=-1&forks=0&timeout=50&localfirst.zone=eu&anything=goes");

        assertThat(url.getParameter("retries", 0)).isEqualTo(-1);
        assertThat(url.getParameter("localfirst.zone")).isEqualTo("eu");
    }

    @Test
    void titles_comeFromClusterBalancerAndMock() throws UsageException {
        assertThat(Scenario.titleOf(ConsumerUrls.parse(""))).isEqualTo("failover");
        assertThat(Scenario.titleOf(ConsumerUrls.parse("loadbalance=p2c"))).isEqualTo("failover + p2c");
        assertThat(Scenario.titleOf(ConsumerUrls.parse("cluster=failfast&mock=force:return+x")))
                .isEqualTo("failfast + mock");
        assertThat(Scenario.titleOf(ConsumerUrls.parse("cluster=failfast&mock=false"))).isEqualTo("failfast");
    }
}
