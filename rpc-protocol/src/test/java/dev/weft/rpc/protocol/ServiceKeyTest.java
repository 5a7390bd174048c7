package dev.weft.rpc.protocol;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServiceKeyTest {

    @Test
    void key_isInterfaceGroupAndVersion_ignoringAddressAndOtherKeys() {
        ServiceKey a = ServiceKey.of(URL.valueOf("weft://10.0.0.1:20880/com.example.Greeter?group=eu&version=1.0&weight=5"));
        ServiceKey b = ServiceKey.of(URL.valueOf("injvm://127.0.0.1/x?interface=com.example.Greeter&version=1.0&group=eu"));
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a.toString()).isEqualTo("eu/com.example.Greeter:1.0");
        assertThat(a.getInterfaceName()).isEqualTo("com.example.Greeter");
        assertThat(a.getGroup()).isEqualTo("eu");
        assertThat(a.getVersion()).isEqualTo("1.0");
    }

    @Test
    void absentGroupOrVersion_differsFromAnyGiven_andIsLeftOutOfTheText() {
        ServiceKey plain = ServiceKey.of(URL.valueOf("injvm://127.0.0.1/com.example.Greeter"));
        assertThat(plain.toString()).isEqualTo("com.example.Greeter");
        assertThat(plain).isNotEqualTo(ServiceKey.of(URL.valueOf("injvm://127.0.0.1/com.example.Greeter?version=1")));
        assertThat(plain).isNotEqualTo(ServiceKey.of(URL.valueOf("injvm://127.0.0.1/com.example.Greeter?group=a")));
        assertThat(ServiceKey.of(URL.valueOf("injvm://127.0.0.1/com.example.Greeter?group=&version="))).isEqualTo(plain);
    }

    @Test
    void equality_isByValue_andNeverWithAnotherType() {
        ServiceKey key = ServiceKey.of(URL.valueOf("injvm://127.0.0.1/com.example.Greeter?group=eu"));
        assertThat(key).isEqualTo(key).isNotEqualTo("eu/com.example.Greeter").isNotEqualTo(null);
        assertThat(key).isNotEqualTo(ServiceKey.of(URL.valueOf("injvm://127.0.0.1/com.example.Other?group=eu")));
    }

    @Test
    void matches_aUrlOfTheSameInterfaceGroupAndVersion_only() {
        ServiceKey key = ServiceKey.of(URL.valueOf("injvm://127.0.0.1/com.example.Greeter?group=eu&version=1"));
        assertThat(key.matches(URL.valueOf("weft://10.0.0.1:20880/com.example.Greeter?version=1&group=eu&weight=3"))).isTrue();
        assertThat(key.matches(URL.valueOf("weft://10.0.0.1:20880/com.example.Other?version=1&group=eu"))).isFalse();
        assertThat(key.matches(URL.valueOf("weft://10.0.0.1:20880/com.example.Greeter?version=1&group=us"))).isFalse();
        assertThat(key.matches(URL.valueOf("weft://10.0.0.1:20880/com.example.Greeter?version=2&group=eu"))).isFalse();
        assertThat(key.matches(URL.valueOf("weft://10.0.0.1:20880"))).as("a URL naming no interface").isFalse();
        ServiceKey plain = ServiceKey.of(URL.valueOf("injvm://127.0.0.1/com.example.Greeter"));
        assertThat(plain.matches(URL.valueOf("weft://10.0.0.1:20880/com.example.Greeter?group=&version="))).isTrue();
        assertThat(plain.matches(URL.valueOf("weft://10.0.0.1:20880/com.example.Greeter?group=eu"))).isFalse();
    }

    @Test
    void urlWithoutInterface_isRejected() {
        assertThatThrownBy(() -> ServiceKey.of(URL.valueOf("injvm://127.0.0.1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("service interface: \"\" in injvm://127.0.0.1 (expected: the interface name as the URL path "
                        + "or in the parameter 'interface')");
    }
}
