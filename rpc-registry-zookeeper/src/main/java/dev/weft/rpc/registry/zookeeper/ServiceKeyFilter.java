package dev.weft.rpc.registry.zookeeper;

import com.google.common.base.Splitter;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.ServiceKey;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which URLs of a service's folder a subscriber keeps: the service key is the interface (the
 * folder), {@code group} and {@code version}. Providers and consumers are kept when their group
 * and version equal the subscriber's ({@code *} accepts any; the subscriber's {@code group} may be
 * a comma list). Override rules and routers are kept unless they name a group or version that
 * does not match. Immutable and thread-safe.
 */
final class ServiceKeyFilter {

    private static final String GROUP_KEY = ServiceKey.GROUP_KEY;
    private static final String VERSION_KEY = ServiceKey.VERSION_KEY;
    private static final String ANY = "*";

    private final Set<String> groups;
    private final String version;

    ServiceKeyFilter(URL subscriber) {
        String group = subscriber.getParameter(GROUP_KEY, "");
        this.groups = group.equals(ANY) ? null
                : Splitter.on(',').trimResults().splitToStream(group).collect(Collectors.toUnmodifiableSet());
        String v = subscriber.getParameter(VERSION_KEY, "");
        this.version = v.equals(ANY) ? null : v;
    }

    /** The URLs of {@code category} that the subscriber keeps, in their order. */
    List<URL> keep(String category, List<URL> urls) {
        boolean rule = category.equals(NodeLayout.CONFIGURATORS) || category.equals(NodeLayout.ROUTERS);
        return urls.stream().filter(url -> matches(url, rule)).toList();
    }

    private boolean matches(URL url, boolean rule) {
        String group = url.getParameter(GROUP_KEY, "");
        String v = url.getParameter(VERSION_KEY, "");
        boolean groupOk = groups == null || (rule && group.isEmpty()) || groups.contains(group);
        boolean versionOk = version == null || (rule && v.isEmpty()) || version.equals(v);
        return groupOk && versionOk;
    }
}
