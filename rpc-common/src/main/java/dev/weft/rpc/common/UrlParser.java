package dev.weft.rpc.common;

import java.util.LinkedHashMap;
import java.util.Map;

/** Parses the text form of a {@link URL}; every failure is an {@link IllegalArgumentException}. */
final class UrlParser {

    private UrlParser() {
    }

    static URL parse(String text) {
        String s = stripSurroundingWhitespace(text);
        if (s.isEmpty()) {
            throw new IllegalArgumentException("expected: a non-empty URL");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new IllegalArgumentException("expected: no control characters, found one at index " + i);
            }
        }
        int lone = URL.indexOfLoneSurrogate(s);
        if (lone >= 0) {
            throw new IllegalArgumentException("expected: well-formed UTF-16, found a lone surrogate at index " + lone);
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
                username = decodeUserInfo(userInfo.substring(0, colon), "user name");
                password = decodeUserInfo(userInfo.substring(colon + 1), "password");
            } else {
                username = decodeUserInfo(userInfo, "user name");
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
        if (protocol == null && username == null && host.isEmpty() && port == 0
                && (path == null || path.isEmpty() || path.chars().allMatch(c -> c == '/')) && parameters.isEmpty()) {
            throw new IllegalArgumentException("expected: at least a protocol, host, port, path or parameter");
        }
        return new URL(protocol, username, password, host, port, path, parameters);
    }

    /**
     * {@code text} without leading and trailing spaces, tabs, carriage returns and line feeds;
     * any other control character stays, to be rejected with the others.
     */
    private static String stripSurroundingWhitespace(String text) {
        int start = 0;
        int end = text.length();
        while (start < end && isSurroundingWhitespace(text.charAt(start))) {
            start++;
        }
        while (end > start && isSurroundingWhitespace(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(start, end);
    }

    private static boolean isSurroundingWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private static void parseQuery(String query, Map<String, String> parameters) {
        int start = 0;
        while (start <= query.length()) {
            int amp = query.indexOf('&', start);
            int end = amp < 0 ? query.length() : amp;
            String pair = query.substring(start, end);
            if (!pair.isEmpty()) {
                int eq = pair.indexOf('=');
                String key = decodeParameter(eq < 0 ? pair : pair.substring(0, eq), pair);
                String value = eq < 0 ? "" : decodeParameter(pair.substring(eq + 1), pair);
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

    /** Decodes user info without ever echoing it: it may hold the password. */
    private static String decodeUserInfo(String raw, String part) {
        try {
            return URL.decode(raw);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("expected: " + e.getMessage() + " in the " + part);
        }
    }

    private static String decodeParameter(String raw, String pair) {
        try {
            return URL.decode(raw);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("expected: " + e.getMessage() + " in parameter '" + pair + "'");
        }
    }

    private static String decodePath(String raw) {
        StringBuilder sb = new StringBuilder(raw.length());
        int start = 0;
        while (true) {
            int slash = raw.indexOf('/', start);
            if (slash < 0) {
                sb.append(decodePathSegment(raw.substring(start)));
                return sb.toString();
            }
            sb.append(decodePathSegment(raw.substring(start, slash))).append('/');
            start = slash + 1;
        }
    }

    private static String decodePathSegment(String raw) {
        try {
            return URL.decode(raw);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("expected: " + e.getMessage() + " in path segment '" + raw + "'");
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

    /** Whether {@code host} is a host name or IPv4 address: letters, digits, '.', '-', '_' or '*'. */
    static boolean isHostName(String host) {
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

    /**
     * Whether {@code host} (without brackets) looks like an IPv6 address: hex digits, ':' and '.'
     * (embedded IPv4), at least one ':', optionally followed by a {@code %zone} of letters, digits,
     * '.', '-' or '_'.
     */
    static boolean isIpv6(String host) {
        int percent = host.indexOf('%');
        String address = percent < 0 ? host : host.substring(0, percent);
        if (address.isEmpty() || address.indexOf(':') < 0) {
            return false;
        }
        for (int i = 0; i < address.length(); i++) {
            char c = address.charAt(i);
            boolean ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
                    || c == ':' || c == '.';
            if (!ok) {
                return false;
            }
        }
        if (percent >= 0) {
            String zone = host.substring(percent + 1);
            if (zone.isEmpty()) {
                return false;
            }
            for (int i = 0; i < zone.length(); i++) {
                char c = zone.charAt(i);
                boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                        || c == '.' || c == '-' || c == '_';
                if (!ok) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The {@code [start, end)} range in unparsed {@code text} that may hold a password, or
     * {@code null} when nothing can: the {@linkplain #authorityPasswordRange exact range} when it
     * exists and no {@code @} follows it before the query; otherwise, when a {@code ':'} after the
     * protocol is followed by an {@code '@'}, everything between the first such {@code ':'} and
     * the last {@code '@'}, so a password with an unencoded {@code /}, {@code ?} or {@code @} is
     * covered too. May cover more than the password; never less. Used to redact input echoed in
     * error messages.
     */
    static int[] passwordRange(String text) {
        int[] exact = authorityPasswordRange(text);
        int scheme = text.indexOf("://");
        int start = scheme >= 0 ? scheme + 3 : 0;
        int colon = text.indexOf(':', start);
        int at = text.lastIndexOf('@');
        if (exact != null) {
            int question = text.indexOf('?', exact[1]);
            int nextAt = text.indexOf('@', exact[1] + 1);
            if (nextAt < 0 || (question >= 0 && nextAt > question)) {
                return exact;
            }
        }
        if (colon < 0 || at <= colon + 1) {
            return null;
        }
        return new int[] {colon + 1, at};
    }

    /**
     * The {@code [start, end)} range of the password in unparsed {@code text}, found exactly as
     * {@link #parse} finds it (query cut at the first '?', protocol before the first "://",
     * authority up to the first '/', user info up to the last '@', password after its first ':'),
     * or {@code null} when there is none.
     */
    static int[] authorityPasswordRange(String text) {
        int question = text.indexOf('?');
        int end = question < 0 ? text.length() : question;
        int scheme = text.indexOf("://");
        int start = scheme >= 0 && scheme < end ? scheme + 3 : 0;
        int slash = text.indexOf('/', start);
        if (slash >= 0 && slash < end) {
            end = slash;
        }
        int at = text.lastIndexOf('@', end - 1);
        if (at < start) {
            return null;
        }
        int colon = text.indexOf(':', start);
        if (colon < 0 || colon >= at || colon + 1 == at) {
            return null;
        }
        return new int[] {colon + 1, at};
    }
}
