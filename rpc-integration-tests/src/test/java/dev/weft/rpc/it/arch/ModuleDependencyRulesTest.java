package dev.weft.rpc.it.arch;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** The rules of docs/architecture.md, checked on the production classes of every Weft module on the test class path. */
class ModuleDependencyRulesTest {

    private final JavaClasses classes = ProductionClasses.get();

    @Test
    void analysedClasses_includeTheFoundationModules() {
        Set<String> modules = new TreeSet<>();
        for (JavaClass javaClass : classes) {
            WeftModule.ofPackage(javaClass.getPackageName()).ifPresent(m -> modules.add(m.artifactId));
        }
        assertThat(modules).contains("rpc-common", "rpc-spi");
    }

    @Test
    void everyPackage_belongsToAModuleOfTheTable() {
        Set<String> unknown = new TreeSet<>();
        for (JavaClass javaClass : classes) {
            if (WeftModule.ofPackage(javaClass.getPackageName()).isEmpty()) {
                unknown.add(javaClass.getPackageName());
            }
        }
        assertThat(unknown).as("packages outside every module root of docs/architecture.md (add the module to WeftModule)")
                .isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = WeftModule.class, names = {"COMMON", "SPI", "LOADBALANCE", "CLUSTER", "PROXY", "MOCK", "PROTOCOL",
            "PROTOCOL_WEFT", "REGISTRY", "REGISTRY_ZOOKEEPER", "BOOTSTRAP", "ADMIN", "TESTING", "METRICS_MICROMETER",
            "TRACING_OPENTELEMETRY"})
    void publishedModule_dependsOnlyOnWhatTheTableAllows(WeftModule module) {
        WeftRules.dependsOnlyOnWhatTheTableAllows(module).check(classes);
    }

    @ParameterizedTest
    @EnumSource(WeftModule.class)
    void module_usesNoWeftModuleOutsideItsRow(WeftModule module) {
        WeftRules.usesNoWeftModuleOutsideItsRow(module).check(classes);
    }

    @Test
    void modules_areFreeOfCycles() {
        WeftRules.modulesAreFreeOfCycles().check(classes);
    }

    @Test
    void packages_areFreeOfCycles() {
        WeftRules.packagesAreFreeOfCycles().check(classes);
    }

    @Test
    void strategies_areReachedByName_neverByClass() {
        WeftRules.strategiesAreReachedByName().check(classes);
    }

    @Test
    void internalPackages_areUsedOnlyInsideTheirModule() {
        WeftRules.internalPackagesArePrivateToTheirModule().check(classes);
    }

    @Test
    void publishedModules_dependOnNoTestCode() {
        WeftRules.publishedCodeDependsOnNoTestCode(classes).check(classes);
    }

    @Test
    void publishedModules_holdNoStaticMutableState_exceptTheDefaultDirector() {
        WeftRules.publishedCodeHoldsNoStaticMutableState(WeftModule.publishedPackages()).check(classes);
    }

    @Test
    void publishedModules_logOnlyThroughSlf4jApi() {
        WeftRules.publishedCodeUsesNoLoggingBackend().check(classes);
    }

    @Test
    void publishedModules_writeNoStandardStreams() {
        WeftRules.publishedCodeWritesNoStandardStreams().check(classes);
    }
}
