package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;

import java.util.Objects;

/**
 * A service's identity in a registry: interface, {@value #GROUP_KEY} and {@value #VERSION_KEY}.
 * A consumer sees only the providers whose three parts equal its own (an absent group or version
 * equals an empty one). Immutable.
 */
public final class ServiceKey {

    /** URL key: the service group (provider and consumer); part of the service key. */
    public static final String GROUP_KEY = "group";
    /** URL key: the service version (provider and consumer); part of the service key. */
    public static final String VERSION_KEY = "version";

    private final String serviceInterface;
    private final String group;
    private final String version;

    private ServiceKey(String serviceInterface, String group, String version) {
        this.serviceInterface = serviceInterface;
        this.group = group;
        this.version = version;
    }

    /** The service key of {@code url} (interface from {@code interface}, else the path). */
    public static ServiceKey of(URL url) {
        Objects.requireNonNull(url, "url");
        return new ServiceKey(Objects.toString(url.getServiceInterface(), ""),
                url.getParameter(GROUP_KEY, ""), url.getParameter(VERSION_KEY, ""));
    }

    public String getInterface() {
        return serviceInterface;
    }

    public String getGroup() {
        return group;
    }

    public String getVersion() {
        return version;
    }

    /** Whether {@code url} is a URL of this very service (interface, group and version all equal). */
    public boolean matches(URL url) {
        return equals(of(url));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ServiceKey other && serviceInterface.equals(other.serviceInterface)
                && group.equals(other.group) && version.equals(other.version);
    }

    @Override
    public int hashCode() {
        return Objects.hash(serviceInterface, group, version);
    }

    /** {@code group/interface:version}, the group and version left out when empty. */
    @Override
    public String toString() {
        return (group.isEmpty() ? "" : group + "/") + serviceInterface + (version.isEmpty() ? "" : ":" + version);
    }
}
