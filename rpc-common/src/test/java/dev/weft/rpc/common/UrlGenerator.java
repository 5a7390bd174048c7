package dev.weft.rpc.common;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/** Builds random but valid {@link URL}s for property tests; deterministic for a given {@link Random}. */
final class UrlGenerator {

    /** Characters that URL syntax gives a meaning to, plus whitespace and a few non-ASCII ones. */
    private static final String ODD = "&=?%+#/ :@[];,.*~!$'()\t\\\"<>{}|^`-_";
    private static final int[] UNICODE = {0xE7, 0xE9, 0x131, 0x130, 0x3A9, 0x4F60, 0x597D, 0x1F600, 0x1F680, 0xFEFF, 0x200B};

    private final Random random;

    UrlGenerator(Random random) {
        this.random = random;
    }

    URL next() {
        String protocol = random.nextInt(6) == 0 ? null : protocol();
        String username = random.nextInt(3) == 0 ? text(1, 8) : null;
        String password = username != null && random.nextBoolean() ? text(1, 10) : null;
        String host = host();
        int port = random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(65535);
        String path = random.nextInt(4) == 0 ? null : path();
        Map<String, String> parameters = new LinkedHashMap<>();
        int count = random.nextInt(7);
        for (int i = 0; i < count; i++) {
            String key = random.nextInt(4) == 0 ? "sayHello." + text(1, 6) : text(1, 8);
            parameters.put(key, random.nextInt(5) == 0 ? "" : text(0, 12));
        }
        if (protocol == null && username == null && host == null && port == 0 && path == null && parameters.isEmpty()) {
            host = "localhost"; // the all-empty URL has no text form
        }
        return new URL(protocol, username, password, host, port, path, parameters);
    }

    private String protocol() {
        String first = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        String rest = first + "0123456789+-.";
        StringBuilder sb = new StringBuilder().append(first.charAt(random.nextInt(first.length())));
        int length = random.nextInt(8);
        for (int i = 0; i < length; i++) {
            sb.append(rest.charAt(random.nextInt(rest.length())));
        }
        return sb.toString();
    }

    private String host() {
        switch (random.nextInt(5)) {
            case 0:
                return null;
            case 1:
                return random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256);
            case 2:
                return ipv6();
            default:
                String chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_";
                StringBuilder sb = new StringBuilder();
                int length = 1 + random.nextInt(20);
                for (int i = 0; i < length; i++) {
                    sb.append(chars.charAt(random.nextInt(chars.length())));
                }
                return sb.toString();
        }
    }

    private String ipv6() {
        StringBuilder sb = new StringBuilder();
        int groups = 1 + random.nextInt(8);
        for (int i = 0; i < groups; i++) {
            sb.append(i == 0 ? "" : ":").append(Integer.toHexString(random.nextInt(0x10000)));
        }
        if (groups < 8) {
            sb.insert(random.nextInt(2) == 0 ? 0 : sb.length(), "::");
        }
        if (random.nextInt(5) == 0) {
            sb.append("%eth").append(random.nextInt(4));
        }
        return random.nextBoolean() ? sb.toString() : "[" + sb + "]";
    }

    private String path() {
        StringBuilder sb = new StringBuilder();
        int segments = 1 + random.nextInt(4);
        for (int i = 0; i < segments; i++) {
            if (i > 0) {
                sb.append('/');
            }
            sb.append(text(0, 8).replace('/', '_'));
        }
        return sb.toString();
    }

    /** A string of {@code min..max} code points mixing letters, URL syntax characters and unicode. */
    String text(int min, int max) {
        StringBuilder sb = new StringBuilder();
        int length = min + random.nextInt(max - min + 1);
        for (int i = 0; i < length; i++) {
            int kind = random.nextInt(4);
            if (kind == 0) {
                sb.append(ODD.charAt(random.nextInt(ODD.length())));
            } else if (kind == 1) {
                sb.appendCodePoint(UNICODE[random.nextInt(UNICODE.length)]);
            } else {
                sb.append((char) ('a' + random.nextInt(26)));
            }
        }
        return sb.toString();
    }
}
