package dev.weft.rpc.it.arch;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The module table of docs/architecture.md: each module's package root and what it may depend on.
 *
 * <p>Guava and slf4j-api reach every published module through {@code rpc-common}, so every
 * published module may use them; javassist, jackson-databind and the rest only where the table lists them.
 */
enum WeftModule {
    COMMON("rpc-common", "common", true, List.of(), List.of()),
    SPI("rpc-spi", "spi", true, List.of(COMMON), List.of("javassist..")),
    LOADBALANCE("rpc-loadbalance", "loadbalance", true, List.of(SPI, COMMON), List.of()),
    CLUSTER("rpc-cluster", "cluster", true, List.of(LOADBALANCE, SPI, COMMON), List.of()),
    PROXY("rpc-proxy", "proxy", true, List.of(SPI, COMMON), List.of("javassist..")),
    MOCK("rpc-mock", "mock", true, List.of(CLUSTER, PROXY, SPI, COMMON), List.of("com.fasterxml.jackson..")),
    /** Netflix concurrency-limits: the adaptive limit of {@code executes=auto} (DESIGN.md §13). */
    PROTOCOL("rpc-protocol", "protocol", true, List.of(SPI, COMMON), List.of("com.netflix.concurrency.limits..")),
    /** Nested under rpc-protocol's root; {@link #ofPackage} takes the longest matching root. */
    PROTOCOL_WEFT("rpc-protocol-weft", "protocol.weft", true, List.of(PROTOCOL, SPI, COMMON),
            List.of("io.netty..", "com.fasterxml.jackson..")),
    REGISTRY("rpc-registry", "registry", true, List.of(CLUSTER, PROTOCOL, SPI, COMMON), List.of()),
    /** Nested under rpc-registry's root. */
    REGISTRY_ZOOKEEPER("rpc-registry-zookeeper", "registry.zookeeper", true,
            List.of(REGISTRY, CLUSTER, PROTOCOL, SPI, COMMON), List.of("org.apache.curator..", "org.apache.zookeeper..")),
    /** Every published module above it (docs/architecture.md#modules), rpc-mock included. */
    BOOTSTRAP("rpc-bootstrap", "bootstrap", true, List.of(REGISTRY_ZOOKEEPER, REGISTRY, PROTOCOL_WEFT, PROTOCOL, MOCK, CLUSTER,
            LOADBALANCE, PROXY, SPI, COMMON), List.of()),
    METRICS_MICROMETER("rpc-metrics-micrometer", "metrics.micrometer", true, List.of(PROTOCOL, CLUSTER, REGISTRY, SPI, COMMON),
            List.of("io.micrometer..")),
    TRACING_OPENTELEMETRY("rpc-tracing-opentelemetry", "tracing.opentelemetry", true, List.of(PROTOCOL, SPI, COMMON),
            List.of("io.opentelemetry..")),
    /** rpc-metrics-micrometer and rpc-tracing-opentelemetry are optional: bound only when the application has them. */
    SPRING_BOOT_STARTER("rpc-spring-boot-starter", "spring.boot", true, List.of(BOOTSTRAP, METRICS_MICROMETER,
            TRACING_OPENTELEMETRY, REGISTRY, PROTOCOL, CLUSTER, SPI, COMMON),
            List.of("org.springframework..", "io.micrometer..", "io.opentelemetry..")),
    /** The operator's command line: rule checks through rpc-bootstrap, the registry through rpc-registry-zookeeper. */
    ADMIN("rpc-admin", "admin", true, List.of(REGISTRY_ZOOKEEPER, REGISTRY, BOOTSTRAP, COMMON), List.of()),
    TESTING("rpc-testing", "testing", true, List.of(SPI, COMMON), List.of("org.junit..")),
    /** rpc-examples and, below it, the third-party extension {@code dev.weft.rpc.examples.extension}. */
    EXAMPLES("rpc-examples", "examples", false, List.of(ADMIN, BOOTSTRAP, METRICS_MICROMETER, REGISTRY_ZOOKEEPER, REGISTRY, PROTOCOL_WEFT,
            MOCK, CLUSTER, PROXY, LOADBALANCE, PROTOCOL, TESTING, SPI, COMMON), List.of()),
    BENCHMARKS("rpc-benchmarks", "benchmarks", false, List.of(BOOTSTRAP, METRICS_MICROMETER, TRACING_OPENTELEMETRY, PROTOCOL_WEFT,
            MOCK, CLUSTER, PROXY, LOADBALANCE, PROTOCOL, SPI, COMMON), List.of()),
    INTEGRATION_TESTS("rpc-integration-tests", "it", false, List.of(BOOTSTRAP, METRICS_MICROMETER, TRACING_OPENTELEMETRY,
            REGISTRY_ZOOKEEPER, REGISTRY, PROTOCOL_WEFT, MOCK, CLUSTER, PROXY, LOADBALANCE, PROTOCOL, TESTING, SPI, COMMON), List.of());

    static final String BASE_PACKAGE = "dev.weft.rpc";
    /** Third-party packages every published module may use (through rpc-common), and the JDK. */
    private static final List<String> COMMON_THIRD_PARTY = List.of("java..", "com.google.common..", "org.slf4j", "org.slf4j.spi..", "org.slf4j.event..", "org.slf4j.helpers..");

    final String artifactId;
    final String packageRoot;
    final boolean published;
    final Set<WeftModule> allowedModules;
    private final List<String> extraThirdParty;

    WeftModule(String artifactId, String segment, boolean published, List<WeftModule> allowed, List<String> extraThirdParty) {
        this.artifactId = artifactId;
        this.packageRoot = BASE_PACKAGE + "." + segment;
        this.published = published;
        this.allowedModules = Set.copyOf(allowed);
        this.extraThirdParty = extraThirdParty;
    }

    /** {@code dev.weft.rpc.x..}: the module's packages in ArchUnit notation. */
    String packages() {
        return packageRoot + "..";
    }

    /** Packages this module's main code may depend on: itself, the allowed modules, JDK and listed libraries. */
    String[] allowedPackages() {
        return Stream.of(Stream.of(packages()), allowedModules.stream().map(WeftModule::packages),
                        COMMON_THIRD_PARTY.stream(), extraThirdParty.stream())
                .flatMap(s -> s)
                .toArray(String[]::new);
    }

    /** Package patterns of the Weft modules this one must not use. */
    String[] forbiddenModulePackages() {
        return Arrays.stream(values())
                .filter(m -> m != this && !allowedModules.contains(m))
                .map(WeftModule::packages)
                .toArray(String[]::new);
    }

    static List<WeftModule> publishedModules() {
        return Arrays.stream(values()).filter(m -> m.published).collect(Collectors.toList());
    }

    /** Published modules that are production code (everything but the test kit, whose job is tests). */
    static String[] publishedProductionPackages() {
        return publishedModules().stream().filter(m -> m != TESTING).map(WeftModule::packages).toArray(String[]::new);
    }

    static String[] publishedPackages() {
        return publishedModules().stream().map(WeftModule::packages).toArray(String[]::new);
    }

    /** The module owning {@code packageName} (the longest matching package root), if it is one of ours. */
    static Optional<WeftModule> ofPackage(String packageName) {
        return Arrays.stream(values())
                .filter(m -> packageName.equals(m.packageRoot) || packageName.startsWith(m.packageRoot + "."))
                .max(Comparator.comparingInt(m -> m.packageRoot.length()));
    }

    /** The classes of this module itself (not those of a module nested under its package root). */
    DescribedPredicate<JavaClass> ownClasses() {
        return DescribedPredicate.describe("classes of " + artifactId,
                javaClass -> ofPackage(javaClass.getPackageName()).orElse(null) == this);
    }

    static Optional<WeftModule> ofArtifactId(String artifactId) {
        return Arrays.stream(values()).filter(m -> m.artifactId.equals(artifactId)).findFirst();
    }
}
