package dev.weft.rpc.protocol;

import com.google.common.net.InetAddresses;
import dev.weft.rpc.common.URL;

import java.util.Objects;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The URL a provider registers for its consumers, from the URL it was exported on and the port
 * it actually bound. Addresses are never guessed: an export on a concrete host registers that
 * host; an export on {@value #ANY_HOST} or {@code ::} (every interface) registers the host in
 * {@value #REGISTER_HOST_KEY}, which is then required, because picking one network card for the
 * user is a classic source of unreachable providers. Stateless and thread-safe.
 */
public final class ProviderAddress {

    /** URL key (provider): the host to register for an export on {@value #ANY_HOST}; no default. */
    public static final String REGISTER_HOST_KEY = "register-host";
    /** The host meaning "bind every interface". */
    public static final String ANY_HOST = "0.0.0.0";

    private ProviderAddress() {
    }

    /**
     * The URL to register: {@code exportUrl} with the registered host, {@code boundPort} and
     * without {@value #REGISTER_HOST_KEY}.
     *
     * @throws IllegalArgumentException when the port is out of range, an {@value #ANY_HOST} export
     *                                  has no {@value #REGISTER_HOST_KEY}, or a concrete-host export
     *                                  names a different one
     */
    public static URL registeredUrl(URL exportUrl, int boundPort) {
        Objects.requireNonNull(exportUrl, "exportUrl");
        checkArgument(boundPort > 0 && boundPort <= 65_535, "bound port: %s (expected: 1-65535, the port actually bound) for %s",
                boundPort, exportUrl);
        String host = exportUrl.getHost();
        String registerHost = exportUrl.getParameter(REGISTER_HOST_KEY, "");
        checkArgument(!isAnyHost(registerHost), "URL parameter %s: %s (expected: an address consumers can connect to) in %s",
                REGISTER_HOST_KEY, registerHost, exportUrl);
        String registered;
        if (isAnyHost(host)) {
            checkArgument(!registerHost.isEmpty(), "URL parameter %s: absent (expected: the address consumers connect to, "
                    + "required when exporting on %s) in %s", REGISTER_HOST_KEY, host, exportUrl);
            registered = registerHost;
        } else {
            checkArgument(registerHost.isEmpty() || registerHost.equals(host), "URL parameter %s: %s (expected: absent or %s, "
                    + "the export host; it is read only for an export on %s) in %s", REGISTER_HOST_KEY, registerHost, host,
                    ANY_HOST, exportUrl);
            registered = host;
        }
        return exportUrl.withHost(registered).withPort(boundPort).removeParameter(REGISTER_HOST_KEY);
    }

    /** Whether {@code host} is an address literal meaning every interface: {@value #ANY_HOST}, {@code ::} in any spelling. */
    private static boolean isAnyHost(String host) {
        String literal = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return ANY_HOST.equals(literal)
                || (InetAddresses.isInetAddress(literal) && InetAddresses.forString(literal).isAnyLocalAddress());
    }
}
