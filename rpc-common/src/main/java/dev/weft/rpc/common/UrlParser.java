package dev.weft.rpc.common;

import java.util.LinkedHashMap;
import java.util.Map;

/** Parses the text form of a {@link URL}; every failure is an {@link IllegalArgumentException}. */
final class UrlParser {

    private UrlParser() {
    }

    static URL parse(String text) {
        String s = text.trim();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("expected: a non-empty URL");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new IllegalArgumentException("expected: no control characters, found one at index " + i);
            }
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        int question = s.indexOf('?');
        if (question >= 0) {
            parseQuery(s.substring(question + 1), parameters);
            s = s.substring(0, question);
        }

        String protocol = null;
        int scheme = s.indexOf("://");
        if (scheme >= 0) {
            protocol = s.substring(0, scheme);
            if (!URL.isValidProtocol(protocol)) {
                throw new IllegalArgumentException("expected: protocol made of a letter then letters, digits, '+', '-' or '.', got '"
                        + protocol + "'");
            }
            s = s.substring(scheme + 3);
        } else if (s.startsWith("//")) {
            throw new IllegalArgumentException("expected: a protocol before '//'");
        }

        String path = null;
        int slash = s.indexOf('/');
        if (slash >= 0) {
            path = decodePath(s.substring(slash + 1));
            s = s.substring(0, slash);
        }

        String username = null;
        String password = null;
        int at = s.lastIndexOf('@');
        if (at >= 0) {
            String userInfo = s.substring(0, at);
            s = s.substring(at + 1);
            int colon = userInfo.indexOf(':');
            if (colon >= 0) {
                username = URL.decode(userInfo.substring(0, colon));
                password = URL.decode(userInfo.substring(colon + 1));
            } else {
                username = URL.decode(userInfo);
            }
            if (username.isEmpty()) {
                throw new IllegalArgumentException("expected: a user name before '@'");
            }
        }

        String host;
        int port = 0;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("expected: ']' closing the IPv6 address");
            }
            host = s.substring(1, close);
            if (!isIpv6(host)) {
                throw new IllegalArgumentException("expected: an IPv6 address in brackets, got '" + host + "'");
            }
            String rest = s.substring(close + 1);
            if (!rest.isEmpty()) {
                if (rest.charAt(0) != ':') {
                    throw new IllegalArgumentException("expected: ':port' after the IPv6 address");
                }
                port = parsePort(rest.substring(1));
            }
        } else {
            int colon = s.lastIndexOf(':');
            if (colon >= 0) {
                port = parsePort(s.substring(colon + 1));
                host = s.substring(0, colon);
            } else {
                host = s;
            }
            if (!isHostName(host)) {
                throw new IllegalArgumentException("expected: a host of letters, digits, '.', '-' or '_', got '" + host + "'");
            }
        }
        return new URL(protocol, username, password, host, port, path, parameters);
    }

    private static void parseQuery(String query, Map<String, String> parameters) {
        int start = 0;
        while (start <= query.length()) {
            int amp = query.indexOf('&', start);
            int end = amp < 0 ? query.length() : amp;
            String pair = query.substring(start, end);
            if (!pair.isEmpty()) {
                int eq = pair.indexOf('=');
                String key = URL.decode(eq < 0 ? pair : pair.substring(0, eq));
                String value = eq < 0 ? "" : URL.decode(pair.substring(eq + 1));
                if (key.isEmpty()) {
                    throw new IllegalArgumentException("expected: a parameter name before '=' in '" + pair + "'");
                }
                parameters.remove(key); // last wins, and takes the last position
                parameters.put(key, value);
            }
            if (amp < 0) {
                break;
            }
            start = amp + 1;
        }
    }

    private static String decodePath(String raw) {
        StringBuilder sb = new StringBuilder(raw.length());
        int start = 0;
        while (true) {
            int slash = raw.indexOf('/', start);
            if (slash < 0) {
                sb.append(URL.decode(raw.substring(start)));
                return sb.toString();
            }
            sb.append(URL.decode(raw.substring(start, slash))).append('/');
            start = slash + 1;
        }
    }

    private static int parsePort(String text) {
        if (text.isEmpty() || text.length() > 5) {
            throw new IllegalArgumentException("expected: a port 0-65535, got '" + text + "'");
        }
        int port = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("expected: a port 0-65535, got '" + text + "'");
            }
            port = port * 10 + (c - '0');
        }
        if (port > 65535) {
            throw new IllegalArgumentException("expected: a port 0-65535, got '" + text + "'");
        }
        return port;
    }

    private static boolean isHostName(String host) {
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '-' || c == '_' || c == '*';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIpv6(String host) {
        if (host.isEmpty() || host.indexOf(':') < 0) {
            return false;
        }
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            boolean ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
                    || c == ':' || c == '.' || c == '%';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
