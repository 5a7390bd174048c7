package dev.weft.rpc.common;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class UrlRoundTripPropertyTest {

    private static final int URLS = 20_000;

    @Test
    void valueOf_toFullString_roundTripsGeneratedUrls() {
        UrlGenerator generator = new UrlGenerator(new Random(20_261_129L));
        int withPassword = 0;
        int withIpv6 = 0;
        int withMethodKey = 0;
        for (int i = 0; i < URLS; i++) {
            URL url = generator.next();
            String text = url.toFullString();

            URL parsed = URL.valueOf(text);

            assertThat(parsed).as("URL #%d: %s", i, text).isEqualTo(url);
            assertThat(parsed.hashCode()).as("hash of %s", text).isEqualTo(url.hashCode());
            assertThat(parsed.toFullString()).isEqualTo(text);
            assertThat(parsed.getParameters()).containsExactlyEntriesOf(url.getParameters());
            withPassword += url.getPassword() != null ? 1 : 0;
            withIpv6 += url.getHost() != null && url.getHost().contains(":") ? 1 : 0;
            withMethodKey += url.getParameters().keySet().stream().anyMatch(k -> k.startsWith("sayHello.")) ? 1 : 0;
        }
        // The generator really covered the interesting shapes.
        assertThat(withPassword).isGreaterThan(URLS / 10);
        assertThat(withIpv6).isGreaterThan(URLS / 10);
        assertThat(withMethodKey).isGreaterThan(URLS / 10);
    }

    @Test
    void toString_neverContainsPassword_ofGeneratedUrls() {
        UrlGenerator generator = new UrlGenerator(new Random(7L));
        int checked = 0;
        for (int i = 0; i < URLS; i++) {
            URL url = generator.next();
            if (url.getPassword() == null) {
                continue;
            }
            String encodedPassword = URL.encode(url.getPassword());
            String redacted = url.toString();

            assertThat(redacted).startsWith(url.getProtocol() == null ? URL.encode(url.getUsername()) + ":***@"
                    : url.getProtocol() + "://" + URL.encode(url.getUsername()) + ":***@");
            assertThat(redacted.replace(":***@", ":" + encodedPassword + "@")).isEqualTo(url.toFullString());
            checked++;
        }
        assertThat(checked).isGreaterThan(URLS / 10);
    }
}
