package dev.weft.rpc.common;

import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable address with parameters: {@code protocol://user:password@host:port/path?k=v&k2=v2}.
 *
 * <p>Every Weft strategy is chosen and tuned by URL parameters, so lookups are on the call path:
 * method parameters ({@code sayHello.timeout=3}) are indexed when the URL is built, and typed
 * getters parse a value once and cache it, so {@link #getMethodParameter(String, String, int)}
 * is two hash lookups with no string concatenation and no re-parsing.
 *
 * <p>Parsing rules: the protocol is optional (no {@code ://} means none); user info, port, host
 * and path are optional ({@code file:///tmp/x} has no host and path {@code tmp/x}); IPv6 hosts are
 * written in brackets ({@code [::1]}) and stored without them; query keys and values are
 * percent-decoded; a repeated key keeps its last value; {@code k=} and {@code k} are present with
 * value {@code ""}. The path is stored without its leading slash. Parts are decoded as
 * {@code application/x-www-form-urlencoded} UTF-8, so a {@code +} in the text is a space and a literal
 * plus is written {@code %2B}. Input with control characters or unpaired surrogates, and input
 * with no part at all ({@code "?"}), is rejected.
 *
 * <p>{@link #toString()} redacts the password, and the password of every URL written inside a
 * parameter value ({@code url=weft://user:secret@host:20880,...} prints
 * {@code weft://user:***@host:20880}), and is what logs and error messages print;
 * {@link #toFullString()} keeps it and round-trips through {@link #valueOf(String)}.
 *
 * <p>Immutable and thread-safe; {@code addParameter}/{@code removeParameter}/{@code withX}
 * return new instances.
 */
public final class URL {

    private static final String REDACTED = "***";
    /** {@code scheme://user:password@} inside a parameter value: group 1 up to the colon, group 2 the password. */
    private static final java.util.regex.Pattern EMBEDDED_PASSWORD =
            java.util.regex.Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://[^/?#,:@]*):([^/?#,]*)@");

    private final String protocol;
    private final String username;
    private final String password;
    private final String host;
    private final int port;
    private final String path;
    /** Unmodifiable, in the given order; a JDK map, not Guava's, to keep class loading cheap at start-up. */
    private final Map<String, String> parameters;
    /** Typed, cached views of {@link #parameters}. */
    private final Map<String, ParameterValue> values;
    /** {@code method -> key -> value} for every {@code method.key} parameter. */
    private final Map<String, Map<String, ParameterValue>> methodValues;
    private volatile String fullString;
    /** Whether a parameter value holds a URL with a password ({@code scheme://user:password@}). */
    private final boolean embeddedPassword;
    private int hash;

    /**
     * Creates a URL from its parts; {@code null} means absent, a port of 0 means no port.
     *
     * <p>An IPv6 host may be given with or without brackets; it is stored without them.
     *
     * @throws IllegalArgumentException when a part is malformed (bad protocol, host that is neither
     *         a host name, an IPv4 nor an IPv6 address, port out of range, password without user
     *         name, empty parameter name), so that every URL built here round-trips through
     *         {@link #toFullString()} and {@link #valueOf(String)}
     */
    public URL(String protocol, String username, String password, String host, int port, String path,
               Map<String, String> parameters) {
        if (protocol != null && !protocol.isEmpty() && !isValidProtocol(protocol)) {
            throw new IllegalArgumentException("URL protocol: " + protocol
                    + " (expected: a letter then letters, digits, '+', '-' or '.')");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("URL port: " + port + " (expected: 0-65535)");
        }
        if (password != null && !password.isEmpty() && (username == null || username.isEmpty())) {
            throw new IllegalArgumentException("URL password without a user name (expected: user:password@host)");
        }
        requireWellFormed("URL user name", username);
        requireWellFormed("URL password", password);
        requireWellFormed("URL path", path);
        String bareHost = stripBrackets(host);
        if (bareHost != null && !bareHost.isEmpty()
                && !(bareHost.indexOf(':') >= 0 ? UrlParser.isIpv6(bareHost) : UrlParser.isHostName(bareHost))) {
            throw new IllegalArgumentException("URL host: " + host
                    + " (expected: a host name or IPv4 address of letters, digits, '.', '-', '_' or '*', or an IPv6 address)");
        }
        this.protocol = emptyToNull(protocol);
        this.username = emptyToNull(username);
        this.password = emptyToNull(password);
        this.host = emptyToNull(bareHost);
        this.port = port;
        this.path = emptyToNull(stripLeadingSlash(path));
        this.parameters = copyOf(parameters);
        Map<String, ParameterValue> byKey = new HashMap<>(Math.max(4, this.parameters.size() * 2));
        Map<String, Map<String, ParameterValue>> byMethod = new HashMap<>();
        for (Map.Entry<String, String> entry : this.parameters.entrySet()) {
            String key = entry.getKey();
            if (key.isEmpty()) {
                throw new IllegalArgumentException("URL parameter name: \"\" (expected: a non-empty name)");
            }
            requireWellFormed("URL parameter name", key);
            if (indexOfLoneSurrogate(entry.getValue()) >= 0) {
                requireWellFormed("URL parameter " + key, entry.getValue()); // builds the message only on failure
            }
            ParameterValue value = new ParameterValue(key, entry.getValue(), this);
            byKey.put(key, value);
            int dot = key.indexOf('.');
            if (dot > 0 && dot < key.length() - 1) {
                String method = key.substring(0, dot);
                Map<String, ParameterValue> perMethod = byMethod.get(method);
                if (perMethod == null) { // no computeIfAbsent lambda: keeps the first URL cheap
                    perMethod = new HashMap<>(4);
                    byMethod.put(method, perMethod);
                }
                perMethod.put(key.substring(dot + 1), value);
            }
        }
        this.values = byKey;
        this.methodValues = byMethod;
        boolean embedded = false;
        for (String value : this.parameters.values()) {
            embedded |= value.indexOf('@') >= 0 && EMBEDDED_PASSWORD.matcher(value).find();
        }
        this.embeddedPassword = embedded;
    }

    /**
     * An unmodifiable copy keeping the order of {@code parameters}.
     *
     * @throws NullPointerException for a null name or value
     */
    private static Map<String, String> copyOf(Map<String, String> parameters) {
        if (parameters == null || parameters.isEmpty()) {
            return Collections.emptyMap();
        }
        Map<String, String> copy = new LinkedHashMap<>(parameters.size() * 4 / 3 + 1);
        for (Map.Entry<String, String> entry : parameters.entrySet()) {
            String key = Objects.requireNonNull(entry.getKey(), "URL parameter name");
            String value = entry.getValue();
            if (value == null) {
                throw new NullPointerException("URL parameter " + key);
            }
            copy.put(key, value);
        }
        return Collections.unmodifiableMap(copy);
    }

    /** A URL with protocol, host, port and path and no parameters. */
    public URL(String protocol, String host, int port, String path) {
        this(protocol, null, null, host, port, path, null);
    }

    // ------------------------------------------------------------------ parsing

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException for any malformed input, naming the input (password redacted);
     *         never any other exception
     */
    public static URL valueOf(String text) {
        if (text == null) {
            throw new IllegalArgumentException("URL: null (expected: protocol://host:port/path?key=value)");
        }
        try {
            return UrlParser.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("URL: " + redact(text) + " (" + redactDetail(text, e.getMessage()) + ")", e);
        } catch (RuntimeException e) {
            // Not expected; the cause's message is left out of ours because it could quote the password.
            throw new IllegalArgumentException("URL: " + redact(text)
                    + " (expected: protocol://user:password@host:port/path?key=value; parser failed with "
                    + e.getClass().getName() + ")", e);
        }
    }

    /**
     * The parser's {@code detail}, with everything it quotes replaced by {@code ***} when the
     * password could not be told apart exactly (a {@code /}, {@code ?} or {@code @} left
     * unencoded in it): the parser then cut the text elsewhere and may quote a piece of it.
     */
    private static String redactDetail(String text, String detail) {
        int[] range = UrlParser.passwordRange(text);
        if (range == null || Arrays.equals(range, UrlParser.authorityPasswordRange(text))) {
            return detail;
        }
        int first = detail.indexOf('\'');
        int last = detail.lastIndexOf('\'');
        return first < last ? detail.substring(0, first) + "'" + REDACTED + "'" + detail.substring(last + 1) : detail;
    }

    /**
     * {@code text} with whatever may be the password replaced by {@code ***}: see
     * {@link UrlParser#passwordRange(String)}.
     */
    static String redact(String text) {
        int[] range = UrlParser.passwordRange(text);
        if (range == null) {
            return text;
        }
        return text.substring(0, range[0]) + REDACTED + text.substring(range[1]);
    }

    // ------------------------------------------------------------------ parts

    public String getProtocol() {
        return protocol;
    }

    public String getUsername() {
        return username;
    }

    public String getPassword() {
        return password;
    }

    /** The host without IPv6 brackets, or {@code null}. */
    public String getHost() {
        return host;
    }

    /** The port, or 0 when absent. */
    public int getPort() {
        return port;
    }

    /** The path without its leading slash, or {@code null}. */
    public String getPath() {
        return path;
    }

    /** {@code host:port} ({@code [v6]:port} for IPv6), {@code host} without a port, or {@code ""}. */
    public String getAddress() {
        StringBuilder sb = new StringBuilder();
        appendHost(sb);
        if (port > 0) {
            sb.append(':').append(port);
        }
        return sb.toString();
    }

    /** The {@code interface} parameter, else the path. */
    public String getServiceInterface() {
        String value = getParameter("interface");
        return value == null || value.isEmpty() ? path : value;
    }

    // ------------------------------------------------------------------ parameters

    /** All parameters, unmodifiable, in the order they were given. */
    public Map<String, String> getParameters() {
        return parameters;
    }

    /** Whether {@code key} is present (an empty value counts as present). */
    public boolean hasParameter(String key) {
        return values.containsKey(key);
    }

    /** The raw value of {@code key} ({@code ""} for {@code k=}), or {@code null}. */
    public String getParameter(String key) {
        ParameterValue value = values.get(key);
        return value == null ? null : value.raw;
    }

    /** The value of {@code key}, or {@code defaultValue} when absent or empty. */
    public String getParameter(String key, String defaultValue) {
        return ParameterValue.asString(values.get(key), defaultValue);
    }

    /**
     * The value of {@code key} as an int, or {@code defaultValue} when absent or empty.
     *
     * @throws IllegalArgumentException when the value is not an int, naming key, value and this URL
     */
    public int getParameter(String key, int defaultValue) {
        return ParameterValue.asInt(values.get(key), defaultValue);
    }

    /** As {@link #getParameter(String, int)} for a long. */
    public long getParameter(String key, long defaultValue) {
        return ParameterValue.asLong(values.get(key), defaultValue);
    }

    /** As {@link #getParameter(String, int)} for {@code true}/{@code false} (any case). */
    public boolean getParameter(String key, boolean defaultValue) {
        return ParameterValue.asBoolean(values.get(key), defaultValue);
    }

    /** The value of {@code method.key}, else of {@code key}, else {@code null}. */
    public String getMethodParameter(String method, String key) {
        ParameterValue value = methodValue(method, key);
        return value == null ? null : value.raw;
    }

    /** As {@link #getMethodParameter(String, String)} with a default for absent or empty. */
    public String getMethodParameter(String method, String key, String defaultValue) {
        return ParameterValue.asString(methodValue(method, key), defaultValue);
    }

    /** As {@link #getParameter(String, int)}, looking up {@code method.key} first. */
    public int getMethodParameter(String method, String key, int defaultValue) {
        return ParameterValue.asInt(methodValue(method, key), defaultValue);
    }

    /** As {@link #getParameter(String, long)}, looking up {@code method.key} first. */
    public long getMethodParameter(String method, String key, long defaultValue) {
        return ParameterValue.asLong(methodValue(method, key), defaultValue);
    }

    /** As {@link #getParameter(String, boolean)}, looking up {@code method.key} first. */
    public boolean getMethodParameter(String method, String key, boolean defaultValue) {
        return ParameterValue.asBoolean(methodValue(method, key), defaultValue);
    }

    /** Whether {@code method.key} itself is present (not falling back to {@code key}). */
    public boolean hasMethodParameter(String method, String key) {
        Map<String, ParameterValue> forMethod = method == null ? null : methodValues.get(method);
        return forMethod != null && forMethod.containsKey(key);
    }

    private ParameterValue methodValue(String method, String key) {
        if (method != null) {
            Map<String, ParameterValue> forMethod = methodValues.get(method);
            if (forMethod != null) {
                ParameterValue value = forMethod.get(key);
                if (value != null) {
                    return value;
                }
            }
        }
        return values.get(key);
    }

    // ------------------------------------------------------------------ copies

    /** A copy with {@code key=value} added or replaced. */
    public URL addParameter(String key, String value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (value.equals(getParameter(key))) {
            return this;
        }
        Map<String, String> copy = new LinkedHashMap<>(parameters);
        copy.put(key, value);
        return withParameters(copy);
    }

    public URL addParameter(String key, int value) {
        return addParameter(key, Integer.toString(value));
    }

    public URL addParameter(String key, long value) {
        return addParameter(key, Long.toString(value));
    }

    public URL addParameter(String key, boolean value) {
        return addParameter(key, Boolean.toString(value));
    }

    /** A copy with every entry of {@code added} added or replaced. */
    public URL addParameters(Map<String, String> added) {
        Objects.requireNonNull(added, "added");
        if (added.isEmpty()) {
            return this;
        }
        Map<String, String> copy = new LinkedHashMap<>(parameters);
        added.forEach((k, v) -> copy.put(Objects.requireNonNull(k, "key"), Objects.requireNonNull(v, "value of " + k)));
        return withParameters(copy);
    }

    /** A copy without {@code key}; this instance when the key is absent. */
    public URL removeParameter(String key) {
        if (!hasParameter(key)) {
            return this;
        }
        Map<String, String> copy = new LinkedHashMap<>(parameters);
        copy.remove(key);
        return withParameters(copy);
    }

    /** A copy with exactly these parameters. */
    public URL withParameters(Map<String, String> newParameters) {
        return new URL(protocol, username, password, host, port, path, newParameters);
    }

    public URL withProtocol(String newProtocol) {
        return new URL(newProtocol, username, password, host, port, path, parameters);
    }

    public URL withHost(String newHost) {
        return new URL(protocol, username, password, newHost, port, path, parameters);
    }

    public URL withPort(int newPort) {
        return new URL(protocol, username, password, host, newPort, path, parameters);
    }

    public URL withPath(String newPath) {
        return new URL(protocol, username, password, host, port, newPath, parameters);
    }

    // ------------------------------------------------------------------ text

    /** The whole URL, password included, percent-encoded so that {@code valueOf} gives it back. */
    public String toFullString() {
        String s = fullString;
        if (s == null) {
            s = render(false);
            fullString = s;
        }
        return s;
    }

    /** The URL with the password replaced by {@code ***}: safe for logs and error messages. */
    @Override
    public String toString() {
        return password == null && !embeddedPassword ? toFullString() : render(true);
    }

    private String render(boolean redactPassword) {
        StringBuilder sb = new StringBuilder(64);
        if (protocol != null) {
            sb.append(protocol).append("://");
        }
        if (username != null) {
            sb.append(encode(username));
            if (password != null) {
                sb.append(':').append(redactPassword ? REDACTED : encode(password));
            }
            sb.append('@');
        }
        appendHost(sb);
        if (port > 0) {
            sb.append(':').append(port);
        }
        if (path != null) {
            sb.append('/').append(encodePath(path));
        }
        if (!parameters.isEmpty()) {
            char separator = '?';
            for (Map.Entry<String, String> entry : parameters.entrySet()) {
                String value = entry.getValue();
                if (redactPassword && embeddedPassword) {
                    value = EMBEDDED_PASSWORD.matcher(value).replaceAll("$1:" + REDACTED + "@");
                }
                sb.append(separator).append(encode(entry.getKey())).append('=').append(encode(value));
                separator = '&';
            }
        }
        return sb.toString();
    }

    private void appendHost(StringBuilder sb) {
        if (host != null) {
            if (host.indexOf(':') >= 0) {
                sb.append('[').append(host).append(']');
            } else {
                sb.append(host);
            }
        }
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    static final String BAD_ESCAPE = "valid percent-encoding (%XX)";
    static final String BAD_UTF8 = "percent-encoded bytes that form UTF-8";

    /**
     * Decodes {@code application/x-www-form-urlencoded} UTF-8: {@code +} is a space, each run of
     * {@code %XX} is bytes that must form UTF-8. Unlike {@code URLDecoder}, malformed UTF-8 is an
     * error rather than U+FFFD, so no input changes silently.
     *
     * @throws IllegalArgumentException with {@link #BAD_ESCAPE} or {@link #BAD_UTF8} as its message
     */
    static String decode(String value) {
        if (value.indexOf('%') < 0) {
            return value.indexOf('+') < 0 ? value : value.replace('+', ' ');
        }
        StringBuilder out = new StringBuilder(value.length());
        int i = 0;
        while (i < value.length()) {
            char c = value.charAt(i);
            if (c != '%') {
                out.append(c == '+' ? ' ' : c);
                i++;
                continue;
            }
            byte[] bytes = new byte[(value.length() - i) / 3];
            int count = 0;
            while (i < value.length() && value.charAt(i) == '%') {
                int high = i + 2 < value.length() ? hexValue(value.charAt(i + 1)) : -1;
                int low = high < 0 ? -1 : hexValue(value.charAt(i + 2));
                if (low < 0) {
                    throw new IllegalArgumentException(BAD_ESCAPE);
                }
                bytes[count++] = (byte) (high << 4 | low);
                i += 3;
            }
            try {
                out.append(StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes, 0, count)));
            } catch (CharacterCodingException e) {
                throw new IllegalArgumentException(BAD_UTF8, e);
            }
        }
        return out.toString();
    }

    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private static String encodePath(String path) {
        StringBuilder sb = new StringBuilder(path.length() + 8);
        int start = 0;
        while (true) {
            int slash = path.indexOf('/', start);
            if (slash < 0) {
                sb.append(encode(path.substring(start)));
                return sb.toString();
            }
            sb.append(encode(path.substring(start, slash))).append('/');
            start = slash + 1;
        }
    }

    // ------------------------------------------------------------------ value semantics

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof URL)) {
            return false;
        }
        URL other = (URL) o;
        return port == other.port
                && Objects.equals(protocol, other.protocol)
                && Objects.equals(username, other.username)
                && Objects.equals(password, other.password)
                && Objects.equals(host, other.host)
                && Objects.equals(path, other.path)
                && parameters.equals(other.parameters);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = Objects.hash(protocol, username, password, host, port, path, parameters);
            hash = h;
        }
        return h;
    }

    // ------------------------------------------------------------------ helpers

    static boolean isValidProtocol(String protocol) {
        if (protocol.isEmpty() || !isAsciiLetter(protocol.charAt(0))) {
            return false;
        }
        for (int i = 1; i < protocol.length(); i++) {
            char c = protocol.charAt(i);
            if (!isAsciiLetter(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') {
                return false;
            }
        }
        return true;
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    /** Index of the first unpaired surrogate in {@code s}, or -1: such text has no UTF-8 form. */
    static int indexOfLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    return i;
                }
            } else if (Character.isLowSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    private static void requireWellFormed(String what, String value) {
        if (value != null) {
            int lone = indexOfLoneSurrogate(value);
            if (lone >= 0) {
                // The value itself is not echoed: it may be a password, and it cannot be printed faithfully anyway.
                throw new IllegalArgumentException(what + ": lone surrogate at index " + lone
                        + " (expected: well-formed UTF-16 text, which has a UTF-8 form)");
            }
        }
    }

    private static String stripBrackets(String host) {
        if (host != null && host.length() >= 2 && host.charAt(0) == '[' && host.charAt(host.length() - 1) == ']') {
            return host.substring(1, host.length() - 1);
        }
        return host;
    }

    private static String stripLeadingSlash(String path) {
        if (path == null) {
            return null;
        }
        int i = 0;
        while (i < path.length() && path.charAt(i) == '/') {
            i++;
        }
        return path.substring(i);
    }
}
