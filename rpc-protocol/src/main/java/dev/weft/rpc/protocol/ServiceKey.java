package dev.weft.rpc.protocol;

import dev.weft.rpc.common.URL;

import java.util.Objects;

/**
 * What identifies a service among those one protocol serves: the interface name, the {@code group}
 * and the {@code version}. Two exports with the same key cannot coexist on one protocol; a consumer
 * reaches only the export whose key equals its own.
 *
 * <p>Immutable and thread-safe; equal by value. The text form is {@code group/interface:version},
 * leaving out an absent group or version.
 */
public final class ServiceKey {

    /** URL key: the service group; absent or empty means no group. */
    public static final String GROUP_KEY = "group";
    /** URL key: the service version; absent or empty means no version. */
    public static final String VERSION_KEY = "version";

    private final String interfaceName;
    private final String group;
    private final String version;

    private ServiceKey(String interfaceName, String group, String version) {
        this.interfaceName = interfaceName;
        this.group = group;
        this.version = version;
    }

    /**
     * The key of {@code url}: its service interface (parameter {@code interface}, else the path)
     * with its {@code group} and {@code version}.
     *
     * @throws IllegalArgumentException when the URL names no interface
     */
    public static ServiceKey of(URL url) {
        Objects.requireNonNull(url, "url");
        String interfaceName = url.getServiceInterface();
        if (interfaceName == null || interfaceName.isEmpty()) {
            throw new IllegalArgumentException("service interface: \"\" in " + url
                    + " (expected: the interface name as the URL path or in the parameter 'interface')");
        }
        return new ServiceKey(interfaceName, url.getParameter(GROUP_KEY, ""), url.getParameter(VERSION_KEY, ""));
    }

    /** The service interface's binary name. */
    public String getInterfaceName() {
        return interfaceName;
    }

    /** The group; empty when none. */
    public String getGroup() {
        return group;
    }

    /** The version; empty when none. */
    public String getVersion() {
        return version;
    }

    /**
     * Whether {@code url} names this very service: the same interface, group and version (an absent
     * group or version equals an empty one). A URL that names no interface matches no key.
     */
    public boolean matches(URL url) {
        return interfaceName.equals(url.getServiceInterface()) && group.equals(url.getParameter(GROUP_KEY, ""))
                && version.equals(url.getParameter(VERSION_KEY, ""));
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ServiceKey)) {
            return false;
        }
        ServiceKey other = (ServiceKey) o;
        return interfaceName.equals(other.interfaceName) && group.equals(other.group) && version.equals(other.version);
    }

    @Override
    public int hashCode() {
        return Objects.hash(interfaceName, group, version);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (!group.isEmpty()) {
            sb.append(group).append('/');
        }
        sb.append(interfaceName);
        if (!version.isEmpty()) {
            sb.append(':').append(version);
        }
        return sb.toString();
    }
}
