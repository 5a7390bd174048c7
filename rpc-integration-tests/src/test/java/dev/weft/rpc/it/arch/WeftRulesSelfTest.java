package dev.weft.rpc.it.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.weft.rpc.cluster.archfixture.NamesInvokerClass;
import dev.weft.rpc.cluster.archfixture.NamesStrategyClass;
import dev.weft.rpc.cluster.archfixture.UsesStrategyInterface;
import dev.weft.rpc.common.archfixture.BadHabits;
import dev.weft.rpc.common.archfixture.DependsOnSpi;
import dev.weft.rpc.common.archfixture.GoodCitizen;
import dev.weft.rpc.common.archfixture.cycle.a.A;
import dev.weft.rpc.common.archfixture.cycle.b.B;
import dev.weft.rpc.loadbalance.archfixture.AbstractFixtureStrategy;
import dev.weft.rpc.loadbalance.archfixture.FixtureInvoker;
import dev.weft.rpc.loadbalance.archfixture.FixtureSpi;
import dev.weft.rpc.loadbalance.archfixture.FixtureStrategy;
import dev.weft.rpc.mock.archfixture.UsesProxyInternal;
import dev.weft.rpc.proxy.archfixture.UsesOwnInternal;
import dev.weft.rpc.proxy.internal.archfixture.Hidden;
import dev.weft.rpc.spi.archfixture.UsesCommon;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Proves each rule of {@link WeftRules} can fail: it is run on small fixture classes (test
 * sources of this module, placed in the module packages) that break it, and on ones that do not.
 */
class WeftRulesSelfTest {

    private static JavaClasses importing(Class<?>... fixtures) {
        return new ClassFileImporter().importClasses(fixtures);
    }

    @Test
    void tableRule_flagsCommonDependingOnSpi_passesGuavaAndSlf4j() {
        assertThatThrownBy(() -> WeftRules.dependsOnlyOnWhatTheTableAllows(WeftModule.COMMON)
                .check(importing(DependsOnSpi.class, UsesCommon.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("DependsOnSpi")
                .hasMessageContaining("dev.weft.rpc.spi.archfixture.UsesCommon");
        assertThatThrownBy(() -> WeftRules.usesNoWeftModuleOutsideItsRow(WeftModule.COMMON)
                .check(importing(DependsOnSpi.class, UsesCommon.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("DependsOnSpi");
        assertThatCode(() -> WeftRules.dependsOnlyOnWhatTheTableAllows(WeftModule.COMMON)
                .check(importing(GoodCitizen.class))).doesNotThrowAnyException();
        assertThatCode(() -> WeftRules.usesNoWeftModuleOutsideItsRow(WeftModule.SPI)
                .check(importing(DependsOnSpi.class, UsesCommon.class))).doesNotThrowAnyException();
    }

    @Test
    void tableRule_absentModule_isNotAFailure() {
        assertThatCode(() -> WeftRules.dependsOnlyOnWhatTheTableAllows(WeftModule.MOCK)
                .check(importing(GoodCitizen.class))).doesNotThrowAnyException();
    }

    @Test
    void cycleRules_flagModuleAndPackageCycles() {
        assertThatThrownBy(() -> WeftRules.modulesAreFreeOfCycles()
                .check(importing(DependsOnSpi.class, UsesCommon.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("module common")
                .hasMessageContaining("module spi");
        assertThatThrownBy(() -> WeftRules.packagesAreFreeOfCycles().check(importing(A.class, B.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("package common.archfixture.cycle.a");
    }

    @Test
    void packageCycleRule_allowsAOneWayUseOfAnInternalPackage() {
        assertThatCode(() -> WeftRules.packagesAreFreeOfCycles()
                .check(importing(UsesOwnInternal.class, Hidden.class))).doesNotThrowAnyException();
    }

    @Test
    void strategyRule_flagsConcreteStrategyOfAnotherModule_passesInterfaceAndAbstractBase() {
        assertThatThrownBy(() -> WeftRules.strategiesAreReachedByName()
                .check(importing(NamesStrategyClass.class, FixtureStrategy.class, AbstractFixtureStrategy.class,
                        FixtureSpi.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("NamesStrategyClass")
                .hasMessageContaining("FixtureStrategy");
        assertThatCode(() -> WeftRules.strategiesAreReachedByName()
                .check(importing(UsesStrategyInterface.class, FixtureStrategy.class, AbstractFixtureStrategy.class,
                        FixtureSpi.class)))
                .doesNotThrowAnyException();
    }

    @Test
    void strategyRule_flagsConcreteInvokerOfAnotherModule() {
        assertThatThrownBy(() -> WeftRules.strategiesAreReachedByName()
                .check(importing(NamesInvokerClass.class, FixtureInvoker.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("NamesInvokerClass")
                .hasMessageContaining("FixtureInvoker");
    }

    @Test
    void internalRule_flagsOtherModule_allowsOwnModule() {
        assertThatThrownBy(() -> WeftRules.internalPackagesArePrivateToTheirModule()
                .check(importing(UsesProxyInternal.class, Hidden.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("UsesProxyInternal")
                .hasMessageContaining("Hidden");
        assertThatCode(() -> WeftRules.internalPackagesArePrivateToTheirModule()
                .check(importing(UsesOwnInternal.class, Hidden.class))).doesNotThrowAnyException();
    }

    @Test
    void hygieneRules_flagStreamsLoggingBackendsAndTestCode() {
        JavaClasses bad = importing(BadHabits.class);

        assertThatThrownBy(() -> WeftRules.publishedCodeWritesNoStandardStreams().check(bad))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("System.out")
                .hasMessageContaining("printStackTrace");
        assertThatThrownBy(() -> WeftRules.publishedCodeUsesNoLoggingBackend().check(bad))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("org.slf4j.simple.SimpleLoggerFactory")
                .hasMessageContaining("java.util.logging.Logger")
                .hasMessageContaining("java.lang.System.getLogger");
        assertThatThrownBy(() -> WeftRules.publishedCodeDependsOnNoTestCode(bad).check(bad))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("org.junit.jupiter.api.Assertions")
                .hasMessageContaining("TestOnlyHelper");

        JavaClasses good = importing(GoodCitizen.class);
        assertThatCode(() -> WeftRules.publishedCodeWritesNoStandardStreams().check(good)).doesNotThrowAnyException();
        assertThatCode(() -> WeftRules.publishedCodeUsesNoLoggingBackend().check(good)).doesNotThrowAnyException();
        assertThatCode(() -> WeftRules.publishedCodeDependsOnNoTestCode(good).check(good)).doesNotThrowAnyException();
    }

    @Test
    void staticStateRule_flagsNonFinalFieldsCountersAndRegistries_passesConstantsAndImmutableMaps() {
        assertThatThrownBy(() -> WeftRules.publishedCodeHoldsNoStaticMutableState("dev.weft.rpc.cluster..")
                .check(importing(dev.weft.rpc.cluster.archfixture.StaticState.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("StaticState.counter")
                .hasMessageContaining("StaticState.CALLS is a static java.util.concurrent.atomic.AtomicLong")
                .hasMessageContaining("StaticState.REGISTRY is a static java.util.concurrent.ConcurrentHashMap")
                .hasMessageNotContaining("StaticState.CONSTANTS")
                .hasMessageNotContaining("StaticState.NAME");
        assertThatCode(() -> WeftRules.publishedCodeHoldsNoStaticMutableState("dev.weft.rpc.spi..")
                .check(importing(dev.weft.rpc.spi.ExtensionDirector.class))).doesNotThrowAnyException();
    }
}
