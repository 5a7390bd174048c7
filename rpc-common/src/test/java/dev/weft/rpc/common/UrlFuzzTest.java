package dev.weft.rpc.common;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

class UrlFuzzTest {

    private static final String SECRET = "Zq9SecretPw";
    private static final String URL_CHARS = "abcxyz019:/?&=@[]%.+-_# \t*~!$,;'\"\\<>{}|^`";

    private final Random random = new Random(4_242L);

    @Test
    void valueOf_randomStrings_onlySucceedsOrThrowsIllegalArgumentNamingInput() {
        Outcome outcome = new Outcome();
        for (int i = 0; i < 20_000; i++) {
            outcome.check(randomString(random.nextInt(40)));
        }
        assertThat(outcome.failures).isGreaterThan(1_000);
        assertThat(outcome.successes).isGreaterThan(100);
    }

    @Test
    void valueOf_mutatedValidUrls_onlySucceedsOrThrowsIllegalArgumentNamingInput() {
        UrlGenerator generator = new UrlGenerator(random);
        Outcome outcome = new Outcome();
        for (int i = 0; i < 20_000; i++) {
            outcome.check(mutate(generator.next().toFullString()));
        }
        assertThat(outcome.failures).isGreaterThan(1_000);
        assertThat(outcome.successes).isGreaterThan(1_000);
    }

    @Test
    void valueOf_garbageAfterPassword_neverEchoesPassword() {
        Outcome outcome = new Outcome();
        for (int i = 0; i < 20_000; i++) {
            String suffix = randomString(random.nextInt(30));
            String input = "dubbo://admin:" + SECRET + "@" + suffix;
            try {
                URL url = URL.valueOf(input);
                assertThat(url.toString()).doesNotContain(SECRET);
                outcome.successes++;
            } catch (IllegalArgumentException e) {
                assertThat(e.getMessage()).as("message for %s", input)
                        .startsWith("URL: dubbo://admin:***@")
                        .doesNotContain(SECRET);
                if (suffix.indexOf('@') < 0) {
                    assertThat(e.getMessage()).startsWith("URL: dubbo://admin:***@" + suffix + " (");
                }
                outcome.failures++;
            }
        }
        assertThat(outcome.failures).isGreaterThan(1_000);
    }

    @Test
    void valueOf_mutationsOfKnownShapes_coverEveryErrorBranch() {
        List<String> messages = new ArrayList<>();
        for (String input : List.of("dubbo://h:", "dubbo://h:x", "dubbo://[::1", "dubbo://[zz]", "dubbo://[::1]a",
                "dubbo://:pw@h", "dubbo://u:%@h", "dubbo://h/%zz", "dubbo://h?%=1", "dubbo://h?=x", "-://h", "//h",
                "dubbo://h h")) {
            try {
                URL.valueOf(input);
                fail("expected a failure for " + input);
            } catch (IllegalArgumentException e) {
                messages.add(e.getMessage());
            }
        }
        assertThat(messages).allSatisfy(m -> assertThat(m).startsWith("URL: ").contains("(expected: "));
    }

    private String randomString(int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            int kind = random.nextInt(10);
            if (kind == 0) {
                sb.append((char) random.nextInt(0x20)); // control characters
            } else if (kind == 1) {
                sb.append((char) random.nextInt(0x10000)); // anything, lone surrogates included
            } else {
                sb.append(URL_CHARS.charAt(random.nextInt(URL_CHARS.length())));
            }
        }
        return sb.toString();
    }

    private String mutate(String valid) {
        StringBuilder sb = new StringBuilder(valid);
        int edits = 1 + random.nextInt(4);
        for (int e = 0; e < edits; e++) {
            int at = sb.length() == 0 ? 0 : random.nextInt(sb.length() + 1);
            switch (random.nextInt(5)) {
                case 0:
                    sb.insert(at, URL_CHARS.charAt(random.nextInt(URL_CHARS.length())));
                    break;
                case 1:
                    if (at < sb.length()) {
                        sb.deleteCharAt(at);
                    }
                    break;
                case 2:
                    if (at < sb.length()) {
                        sb.setCharAt(at, randomString(1).charAt(0));
                    }
                    break;
                case 3:
                    sb.setLength(at);
                    break;
                default:
                    sb.insert(at, sb.substring(0, at));
                    break;
            }
        }
        return sb.toString();
    }

    /** Checks one input: success must round-trip, failure must be a clear IllegalArgumentException. */
    private static final class Outcome {
        int successes;
        int failures;

        void check(String input) {
            URL url;
            try {
                url = URL.valueOf(input);
            } catch (IllegalArgumentException e) {
                assertThat(e.getMessage()).as("message for %s", input)
                        .startsWith("URL: " + URL.redact(input) + " (")
                        .endsWith(")");
                if (UrlParser.passwordRange(input) == null) {
                    assertThat(e.getMessage()).contains(input);
                }
                failures++;
                return;
            } catch (RuntimeException | Error e) {
                throw new AssertionError("valueOf(" + input + ") threw " + e, e);
            }
            String text = url.toFullString();
            assertThat(URL.valueOf(text)).as("re-parse of %s (from %s)", text, input).isEqualTo(url);
            successes++;
        }
    }
}
