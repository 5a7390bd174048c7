package dev.weft.rpc.protocol;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProviderAddressTest {

    @Test
    void concreteHost_registersThatHost_withTheBoundPort() {
        URL exported = URL.valueOf("weft://127.0.0.1:0/com.example.Greeter?weight=200");
        assertThat(ProviderAddress.registeredUrl(exported, 40123))
                .isEqualTo(URL.valueOf("weft://127.0.0.1:40123/com.example.Greeter?weight=200"));
    }

    @Test
    void anyHost_registersRegisterHost_andDropsTheKey() {
        URL exported = URL.valueOf("weft://0.0.0.0:20880/com.example.Greeter?register-host=10.1.2.3&weight=200");
        assertThat(ProviderAddress.registeredUrl(exported, 20880))
                .isEqualTo(URL.valueOf("weft://10.1.2.3:20880/com.example.Greeter?weight=200"));
    }

    @Test
    void anyHost_withoutRegisterHost_isRejected_neverGuessed() {
        assertThatThrownBy(() -> ProviderAddress.registeredUrl(URL.valueOf("weft://0.0.0.0:20880/com.example.Greeter"), 20880))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL parameter register-host: absent (expected: the address consumers connect to, required when "
                        + "exporting on 0.0.0.0) in weft://0.0.0.0:20880/com.example.Greeter");
    }

    @Test
    void ipv6AnyHost_isAnyHostToo_needingRegisterHost_neverRegisteredAsIs() {
        for (String any : List.of("::", "0:0:0:0:0:0:0:0")) {
            URL exported = URL.valueOf("weft://[" + any + "]:20880/com.example.Greeter");
            assertThatThrownBy(() -> ProviderAddress.registeredUrl(exported, 20880))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("URL parameter register-host: absent (expected: the address consumers connect to, required when "
                            + "exporting on " + any + ") in " + exported);
            assertThat(ProviderAddress.registeredUrl(URL.valueOf("weft://[" + any + "]:20880/com.example.Greeter?register-host=10.1.2.3"),
                    20880)).isEqualTo(URL.valueOf("weft://10.1.2.3:20880/com.example.Greeter"));
        }
        assertThatThrownBy(() -> ProviderAddress.registeredUrl(
                URL.valueOf("weft://0.0.0.0:1/com.example.Greeter?register-host=[::]"), 1))
                .hasMessageStartingWith("URL parameter register-host: [::] (expected: an address consumers can connect to)");
    }

    @Test
    void conflictingOrUnusableRegisterHost_andBadPorts_areRejected() {
        assertThatThrownBy(() -> ProviderAddress.registeredUrl(
                URL.valueOf("weft://127.0.0.1:1/com.example.Greeter?register-host=10.0.0.1"), 1))
                .hasMessageStartingWith("URL parameter register-host: 10.0.0.1 (expected: absent or 127.0.0.1, the export host;");
        assertThatThrownBy(() -> ProviderAddress.registeredUrl(
                URL.valueOf("weft://0.0.0.0:1/com.example.Greeter?register-host=0.0.0.0"), 1))
                .hasMessageStartingWith("URL parameter register-host: 0.0.0.0 (expected: an address consumers can connect to)");
        assertThatThrownBy(() -> ProviderAddress.registeredUrl(URL.valueOf("weft://127.0.0.1:0/com.example.Greeter"), 0))
                .hasMessageStartingWith("bound port: 0 (expected: 1-65535, the port actually bound)");
        assertThatThrownBy(() -> ProviderAddress.registeredUrl(URL.valueOf("weft://127.0.0.1:0/com.example.Greeter"), 65_536))
                .hasMessageStartingWith("bound port: 65536 (expected: 1-65535, the port actually bound)");
        assertThat(ProviderAddress.registeredUrl(URL.valueOf("weft://127.0.0.1:0/com.example.Greeter"), 65_535).getPort())
                .isEqualTo(65_535);
        assertThat(ProviderAddress.registeredUrl(URL.valueOf("weft://127.0.0.1:0/com.example.Greeter"), 1).getPort())
                .isEqualTo(1);
    }
}
