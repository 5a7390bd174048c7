package dev.weft.rpc.it.build;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/architecture.md at the Maven level: each published module (the list {@code rpc-bom} publishes)
 * declares in compile/runtime scope only what its row of the table allows, and no logging
 * backend reaches users from any POM, the parent's included.
 */
class PublishedModulePomTest {

    /** What each published module may declare in compile or runtime scope (artifactIds). */
    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("rpc-common", Set.of("guava", "slf4j-api")),
            Map.entry("rpc-spi", Set.of("rpc-common", "javassist", "guava", "slf4j-api")),
            Map.entry("rpc-loadbalance", Set.of("rpc-spi", "rpc-common", "guava", "slf4j-api")),
            Map.entry("rpc-cluster", Set.of("rpc-loadbalance", "rpc-spi", "rpc-common", "guava", "slf4j-api")),
            Map.entry("rpc-proxy", Set.of("rpc-spi", "rpc-common", "javassist", "guava", "slf4j-api")),
            Map.entry("rpc-mock", Set.of("rpc-cluster", "rpc-proxy", "rpc-spi", "rpc-common", "jackson-databind", "guava", "slf4j-api")),
            Map.entry("rpc-testing", Set.of("rpc-common", "rpc-spi", "junit-jupiter-api", "guava", "slf4j-api")),
            Map.entry("rpc-protocol", Set.of("rpc-spi", "rpc-common", "concurrency-limits-core", "guava", "slf4j-api")),
            Map.entry("rpc-protocol-weft", Set.of("rpc-protocol", "rpc-spi", "rpc-common", "netty-handler", "netty-codec",
                    "netty-transport", "netty-transport-classes-epoll", "netty-transport-native-epoll", "netty-buffer", "netty-common",
                    "jackson-databind", "jackson-core", "jackson-datatype-jsr310", "jackson-datatype-jdk8", "guava", "slf4j-api")),
            Map.entry("rpc-registry", Set.of("rpc-cluster", "rpc-protocol", "rpc-spi", "rpc-common", "guava", "slf4j-api")),
            Map.entry("rpc-registry-zookeeper", Set.of("rpc-registry", "rpc-cluster", "rpc-protocol", "rpc-spi", "rpc-common",
                    "curator-framework", "curator-recipes", "zookeeper", "netty-handler", "guava", "slf4j-api")),
            Map.entry("rpc-bootstrap", Set.of("rpc-registry", "rpc-registry-zookeeper", "rpc-cluster", "rpc-loadbalance", "rpc-protocol",
                    "rpc-protocol-weft", "rpc-proxy", "rpc-mock", "rpc-spi", "rpc-common", "guava", "slf4j-api")),
            Map.entry("rpc-spring-boot-starter", Set.of("rpc-bootstrap", "rpc-mock", "spring-boot-autoconfigure", "spring-boot-health")),
            // rpc-mock at run time so that the jar checks mock values as consumers with rpc-mock do
            Map.entry("rpc-admin", Set.of("rpc-registry-zookeeper", "rpc-registry", "rpc-bootstrap", "rpc-common", "rpc-mock",
                    "guava", "slf4j-api")),
            Map.entry("rpc-metrics-micrometer", Set.of("rpc-protocol", "rpc-cluster", "rpc-registry", "rpc-spi", "rpc-common",
                    "micrometer-core", "guava", "slf4j-api")),
            Map.entry("rpc-tracing-opentelemetry", Set.of("rpc-protocol", "rpc-spi", "rpc-common", "opentelemetry-api",
                    "guava", "slf4j-api")));

    private static final Set<String> LOGGING_BACKENDS = Set.of("slf4j-simple", "slf4j-nop", "slf4j-jdk14",
            "slf4j-reload4j", "slf4j-log4j12", "logback-classic", "logback-core", "log4j-core", "log4j-slf4j-impl",
            "log4j-slf4j2-impl", "commons-logging");

    private static final Path ROOT = findRoot();

    @Test
    void bom_listsExactlyThePublishedModulesOfTheTable() {
        List<String> published = DeclaredDependency.managedArtifactIds(ROOT.resolve("rpc-bom/pom.xml"));

        assertThat(published).containsExactlyInAnyOrderElementsOf(ALLOWED.keySet());
    }

    @Test
    void publishedModules_declareOnlyWhatTheTableAllows() {
        List<String> violations = new ArrayList<>();
        for (String module : DeclaredDependency.managedArtifactIds(ROOT.resolve("rpc-bom/pom.xml"))) {
            Path pom = ROOT.resolve(module).resolve("pom.xml");
            assertThat(pom).as("POM of published module %s", module).exists();
            for (DeclaredDependency dependency : DeclaredDependency.of(pom)) {
                if (dependency.reachesUsers() && !ALLOWED.get(module).contains(dependency.artifactId())) {
                    violations.add(dependency + " (expected one of " + ALLOWED.get(module) + ")");
                }
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void noPom_putsALoggingBackendOutsideTestScope() {
        List<Path> poms = new ArrayList<>();
        poms.add(ROOT.resolve("pom.xml"));
        for (String module : DeclaredDependency.modules(ROOT.resolve("pom.xml"))) {
            Path pom = ROOT.resolve(module).resolve("pom.xml");
            if (Files.exists(pom) && !module.equals("rpc-examples") && !module.equals("rpc-benchmarks")
                    && !module.equals("rpc-spring-boot-example")) {
                poms.add(pom); // the playground and benchmarks are applications: they may pick a backend
            }
        }
        List<String> violations = new ArrayList<>();
        for (Path pom : poms) {
            for (DeclaredDependency dependency : DeclaredDependency.of(pom)) {
                // optional: never on a user's class path (rpc-admin's runnable jar carries one)
                if (LOGGING_BACKENDS.contains(dependency.artifactId()) && !dependency.isTestScope() && !dependency.optional()) {
                    violations.add(dependency.toString());
                }
            }
        }
        assertThat(poms).hasSizeGreaterThan(3);
        assertThat(violations).isEmpty();
    }

    private static Path findRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.exists(dir.resolve("rpc-bom/pom.xml")) && Files.exists(dir.resolve("pom.xml"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("project root: not found above " + Path.of("").toAbsolutePath()
                + " (expected: a directory holding pom.xml and rpc-bom/pom.xml)");
    }
}
