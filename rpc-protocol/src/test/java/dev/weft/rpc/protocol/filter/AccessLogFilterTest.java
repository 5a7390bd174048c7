package dev.weft.rpc.protocol.filter;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.protocol.Calls;
import dev.weft.rpc.protocol.Greeter;
import dev.weft.rpc.testing.CapturingLogger;
import dev.weft.rpc.testing.FakeProvider;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AccessLogFilterTest {

    private final CapturingLogger log = new CapturingLogger();
    /** Each read advances 412 µs, so every call takes 412 µs. */
    private final Ticker ticker = new Ticker() {
        private long nanos;

        @Override
        public long read() {
            long now = nanos;
            nanos += TimeUnit.MICROSECONDS.toNanos(412);
            return now;
        }
    };
    private final AccessLogFilter filter = new AccessLogFilter(log, ticker);

    @Test
    void accesslogTrue_writesOneLinePerCall_withServiceMethodCallerOutcomeAndTime() {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/com.example.Greeter?accesslog=true&version=1.0");
        RpcInvocation call = Calls.greet("ada").setAttachment(ContextFilter.APPLICATION_KEY, "shop");
        assertThat(filter.invoke(provider, call).getValue()).isEqualTo("hello ada");
        filter.invoke(provider, Calls.read("/tmp"));
        assertThatThrownBy(() -> filter.invoke(provider, Calls.farewell("ada"))).hasMessage("connection reset");
        assertThat(log.lines()).containsExactly(
                "INFO service=com.example.Greeter:1.0 method=greet(java.lang.String) application=shop outcome=ok micros=412",
                "INFO service=com.example.Greeter:1.0 method=read(java.lang.String) application=- "
                        + "outcome=threw java.io.IOException micros=412",
                "INFO service=com.example.Greeter:1.0 method=farewell(java.lang.String) application=- "
                        + "outcome=failed dev.weft.rpc.common.RpcException micros=412");
    }

    @Test
    void providerUrlWithoutInterface_logsTheInvokersInterface_andAnEmptyApplicationAsADash() {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1?accesslog=true");
        filter.invoke(provider, Calls.greet("ada").setAttachment(ContextFilter.APPLICATION_KEY, ""));
        assertThatThrownBy(() -> filter.invoke(provider, Calls.farewell("ada").setAttachment(ContextFilter.APPLICATION_KEY, "shop")))
                .hasMessage("connection reset");
        assertThat(log.lines()).containsExactly(
                "INFO service=dev.weft.rpc.protocol.Greeter method=greet(java.lang.String) application=- outcome=ok micros=412",
                "INFO service=dev.weft.rpc.protocol.Greeter method=farewell(java.lang.String) application=shop "
                        + "outcome=failed dev.weft.rpc.common.RpcException micros=412");
    }

    @Test
    void callersApplication_withLineBreaksSpacesOrGreatLength_staysOneLineWithItsFieldsIntact() {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/com.example.Greeter?accesslog=true");
        filter.invoke(provider, Calls.greet("ada").setAttachment(ContextFilter.APPLICATION_KEY,
                "shop outcome=ok\nINFO service=forged\\"));
        filter.invoke(provider, Calls.greet("ada").setAttachment(ContextFilter.APPLICATION_KEY, "a".repeat(10_000)));
        assertThat(log.lines()).containsExactly(
                "INFO service=com.example.Greeter method=greet(java.lang.String) "
                        + "application=shop\\u0020outcome=ok\\u000AINFO\\u0020service=forged\\u005C outcome=ok micros=412",
                "INFO service=com.example.Greeter method=greet(java.lang.String) application=" + "a".repeat(256)
                        + "...(+9744) outcome=ok micros=412");
    }

    @Test
    void accesslogFalse_writesNothing() {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/com.example.Greeter?accesslog=false");
        assertThat(filter.invoke(provider, Calls.greet("ada")).getValue()).isEqualTo("hello ada");
        assertThat(log.lines()).isEmpty();
        assertThat(provider.calls()).isEqualTo(1);
    }

    @Test
    void accesslogOtherValue_isRejectedWhenChecked() {
        assertThatThrownBy(() -> filter.checkUrl(dev.weft.rpc.common.URL.valueOf("injvm://127.0.0.1/x?accesslog=/var/log/a")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("URL parameter accesslog: /var/log/a (expected: true or false)");
    }
}
