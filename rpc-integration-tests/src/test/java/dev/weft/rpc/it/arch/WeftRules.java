package dev.weft.rpc.it.arch;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

import java.util.Optional;
import java.util.function.BiPredicate;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.GeneralCodingRules.ACCESS_STANDARD_STREAMS;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The rules of docs/architecture.md as ArchUnit rules, parameterised by module so they cover whatever
 * modules are on the class path and extend as modules appear. Every rule allows an empty
 * selection: a module that has not landed yet is not a failure.
 */
final class WeftRules {

    static final String SPI_ANNOTATION = "dev.weft.rpc.spi.SPI";
    static final String INVOKER = "dev.weft.rpc.common.Invoker";

    /** Packages of logging backends; published code must log through slf4j-api only. */
    static final String[] LOGGING_BACKENDS = {
        "org.slf4j.simple..", "org.slf4j.nop..", "org.slf4j.jul..", "org.slf4j.reload4j..", "org.slf4j.impl..",
        "ch.qos.logback..", "org.apache.logging.log4j..", "org.apache.log4j..", "org.apache.commons.logging..",
        "java.util.logging..",
    };

    /** Test libraries: published code never names them. */
    static final String[] TEST_LIBRARIES = {
        "org.junit..", "org.assertj..", "org.mockito..", "org.opentest4j..", "com.tngtech.archunit..", "org.hamcrest..",
        "org.openjdk.jmh..",
    };

    private WeftRules() {
    }

    static ArchRule dependsOnlyOnWhatTheTableAllows(WeftModule module) {
        return classes().that(module.ownClasses())
                .should().onlyDependOnClassesThat().resideInAnyPackage(module.allowedPackages())
                .as(module.artifactId + " depends only on " + String.join(", ", module.allowedPackages())
                        + " (docs/architecture.md#rules)")
                .allowEmptyShould(true);
    }

    static ArchRule usesNoWeftModuleOutsideItsRow(WeftModule module) {
        return noClasses().that(module.ownClasses())
                .should().dependOnClassesThat().resideInAnyPackage(module.forbiddenModulePackages())
                .as(module.artifactId + " uses no Weft module but " + module.allowedModules + " (docs/architecture.md#rules)")
                .allowEmptyShould(true);
    }

    static ArchRule modulesAreFreeOfCycles() {
        return slices().matching(WeftModule.BASE_PACKAGE + ".(*)..").namingSlices("module $1")
                .should().beFreeOfCycles()
                .allowEmptyShould(true);
    }

    /** Packages are free of cycles: every package is its own slice, {@code internal} ones included. */
    static ArchRule packagesAreFreeOfCycles() {
        return slices().matching(WeftModule.BASE_PACKAGE + ".(**)").namingSlices("package $1")
                .should().beFreeOfCycles()
                .allowEmptyShould(true);
    }

    /**
     * "Strategies are reached by name": no class names a concrete extension class (a non-abstract
     * class implementing an {@code @SPI} interface or {@code Invoker}) of another module. Interfaces,
     * abstract bases such as {@code AbstractLoadBalance} and model types such as
     * {@code InvokerStats} or {@code StaticDirectory} are fine.
     */
    static ArchRule strategiesAreReachedByName() {
        return classes().that().resideInAPackage(WeftModule.BASE_PACKAGE + "..")
                .should(dependOnlyOnOtherModules("use only interfaces/SPI types and non-extension classes of other modules",
                        (origin, target) -> !isExtensionClass(target)))
                .as("strategies of another module are reached by name through the loader, never by class (docs/architecture.md#rules)")
                .allowEmptyShould(true);
    }

    /** {@code ..internal..} packages are used only inside their own module. */
    static ArchRule internalPackagesArePrivateToTheirModule() {
        return classes().that().resideInAPackage(WeftModule.BASE_PACKAGE + "..")
                .should(dependOnlyOnOtherModules("use no internal package of another module",
                        (origin, target) -> !isInternal(target.getPackageName())))
                .as("..internal.. packages are used only inside their own module (docs/architecture.md#rules)")
                .allowEmptyShould(true);
    }

    /**
     * Published code names no example, benchmark or integration-test class (covered by the module
     * table), no test library, and no Weft class that is not itself production code of a module
     * ({@code productionClasses} holds every production class that was imported).
     */
    static ArchRule publishedCodeDependsOnNoTestCode(JavaClasses productionClasses) {
        DescribedPredicate<JavaClass> testCode = DescribedPredicate.describe(
                "test code (test libraries, or Weft classes that are not production classes of a module)",
                target -> {
                    JavaClass base = target.getBaseComponentType();
                    String pkg = base.getPackageName();
                    boolean weft = pkg.equals(WeftModule.BASE_PACKAGE) || pkg.startsWith(WeftModule.BASE_PACKAGE + ".");
                    return resideInAnyPackage(TEST_LIBRARIES).test(base)
                            || (weft && !productionClasses.contain(base.getName()));
                });
        return noClasses().that().resideInAnyPackage(WeftModule.publishedProductionPackages())
                .should().dependOnClassesThat(testCode)
                .as("published modules depend on no test code (docs/architecture.md#rules)")
                .allowEmptyShould(true);
    }

    static ArchRule publishedCodeUsesNoLoggingBackend() {
        return noClasses().that().resideInAnyPackage(WeftModule.publishedPackages())
                .should().dependOnClassesThat().resideInAnyPackage(LOGGING_BACKENDS)
                // For noClasses(), should(a).orShould(b) means "neither a nor b".
                .orShould().callMethod(System.class, "getLogger", String.class)
                .as("published modules log only through slf4j-api (docs/architecture.md#rules)")
                .allowEmptyShould(true);
    }

    /** rpc-admin's entry point: a command line prints to the terminal. */
    static final String COMMAND_LINE_MAIN = "dev.weft.rpc.admin.WeftAdmin";

    static ArchRule publishedCodeWritesNoStandardStreams() {
        return noClasses().that().resideInAnyPackage(WeftModule.publishedPackages())
                .and().doNotHaveFullyQualifiedName(COMMAND_LINE_MAIN)
                .should(ACCESS_STANDARD_STREAMS)
                .as("published modules use no System.out, System.err or printStackTrace (they log through slf4j);"
                        + " only the operator's command line, " + COMMAND_LINE_MAIN + ", hands them to its commands")
                .allowEmptyShould(true);
    }

    /** The one static mutable field allowed in published code: the default director (docs/architecture.md#rules). */
    static final String DEFAULT_DIRECTOR_FIELD = "dev.weft.rpc.spi.ExtensionDirector.defaultDirector";

    /** Types whose static instances are mutable state shared by everything in the class loader. */
    static final String[] MUTABLE_STATE_TYPES = {
        "java.util.concurrent.ConcurrentMap", "java.util.HashMap", "java.util.ArrayList", "java.util.HashSet",
        "java.util.LinkedHashMap", "java.util.TreeMap", "java.util.WeakHashMap", "java.util.IdentityHashMap",
        "java.util.concurrent.atomic.AtomicInteger", "java.util.concurrent.atomic.AtomicLong",
        "java.util.concurrent.atomic.AtomicBoolean", "java.util.concurrent.atomic.AtomicReference",
        "java.util.concurrent.atomic.LongAdder", "java.lang.ThreadLocal", "com.google.common.cache.Cache",
    };

    /**
     * No static mutable state in published modules (docs/architecture.md#rules): every static field is final
     * (the default director excepted) and none holds a map, list, counter, thread-local or cache
     * that would be shared by every director in the class loader. State belongs to an
     * {@code ExtensionDirector} instead.
     */
    static ArchRule publishedCodeHoldsNoStaticMutableState(String... packages) {
        return com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields()
                .that().areStatic().and().areDeclaredInClassesThat().resideInAnyPackage(packages)
                .and(DescribedPredicate.describe("are not the default director",
                        (com.tngtech.archunit.core.domain.JavaField field) -> !field.getFullName().equals(DEFAULT_DIRECTOR_FIELD)))
                .and(DescribedPredicate.describe("are not synthetic",
                        (com.tngtech.archunit.core.domain.JavaField field) -> !field.getModifiers().contains(JavaModifier.SYNTHETIC)))
                .should().beFinal()
                .andShould(new ArchCondition<com.tngtech.archunit.core.domain.JavaField>("not hold a mutable container, counter, thread-local or cache") {
                    @Override
                    public void check(com.tngtech.archunit.core.domain.JavaField field, ConditionEvents events) {
                        JavaClass type = field.getRawType();
                        for (String mutable : MUTABLE_STATE_TYPES) {
                            if (type.isAssignableTo(mutable)) {
                                events.add(SimpleConditionEvent.violated(field, field.getFullName() + " is a static " + type.getName()));
                            }
                        }
                    }
                })
                .as("published modules hold no static mutable state, except the default director (docs/architecture.md#rules)")
                .allowEmptyShould(true);
    }

    /**
     * A concrete class implementing an {@code @SPI} interface (a strategy, wrapper or adaptive
     * extension) or {@code Invoker} (the invokers strategies build: {@code FailoverClusterInvoker},
     * {@code MockInvoker}): a module's implementation, reached through its interface only.
     */
    static boolean isExtensionClass(JavaClass javaClass) {
        JavaClass base = javaClass.getBaseComponentType();
        if (base.isInterface() || base.getModifiers().contains(JavaModifier.ABSTRACT)) {
            return false;
        }
        return base.getAllRawInterfaces().stream()
                .anyMatch(i -> i.isAnnotatedWith(SPI_ANNOTATION) || i.getName().equals(INVOKER));
    }

    static boolean isInternal(String packageName) {
        return (packageName + ".").contains(".internal.");
    }

    /**
     * A condition checking every dependency from a Weft class to a class of another Weft module
     * against {@code allowed(origin, target)}.
     */
    private static ArchCondition<JavaClass> dependOnlyOnOtherModules(String description,
                                                                      BiPredicate<JavaClass, JavaClass> allowed) {
        return new ArchCondition<>(description) {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                Optional<WeftModule> originModule = WeftModule.ofPackage(origin.getPackageName());
                for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                    JavaClass target = dependency.getTargetClass().getBaseComponentType();
                    Optional<WeftModule> targetModule = WeftModule.ofPackage(target.getPackageName());
                    if (targetModule.isEmpty() || targetModule.equals(originModule)) {
                        continue;
                    }
                    if (!allowed.test(origin, target)) {
                        events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
                    }
                }
            }
        };
    }
}
