package dev.weft.rpc.it.descriptor;

import dev.weft.rpc.spi.Adaptive;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionLoader;
import dev.weft.rpc.spi.SPI;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Walks every {@code META-INF/rpc/} descriptor on the test class path (all Weft modules and the
 * third-party extension jar): each line names a class that implements its interface and has a
 * usable constructor, and the loader resolves every name and reports no problem.
 */
class ExtensionDescriptorTest {

    private static final ClassLoader LOADER = ExtensionDescriptorTest.class.getClassLoader();
    private static List<Descriptor> descriptors;

    @BeforeAll
    static void findDescriptors() throws Exception {
        descriptors = Descriptor.findAll(LOADER);
    }

    @Test
    void walk_findsTheDescriptorsOfTheModulesOnTheClassPath() {
        Set<String> interfaces = new TreeSet<>();
        descriptors.forEach(d -> interfaces.add(d.interfaceName()));

        // rpc-example-extension ships a LoadBalance descriptor; every module's own descriptors join as they land.
        assertThat(interfaces).contains("dev.weft.rpc.loadbalance.LoadBalance");
        assertThat(descriptors).allSatisfy(d -> assertThat(d.lines()).as("lines of %s", d.source()).isNotEmpty());
    }

    @Test
    void everyDescriptor_namesAnSpiInterface() {
        List<String> problems = new ArrayList<>();
        for (Descriptor descriptor : descriptors) {
            try {
                Class<?> type = Class.forName(descriptor.interfaceName(), false, LOADER);
                if (!type.isInterface() || !type.isAnnotationPresent(SPI.class)) {
                    problems.add(descriptor.source() + ": " + type.getName() + " (expected: an interface annotated @SPI)");
                }
            } catch (ClassNotFoundException | LinkageError e) {
                problems.add(descriptor.source() + ": interface " + descriptor.interfaceName() + " not loadable: " + e);
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void everyLine_resolvesToAnImplementationWithAUsableConstructor() {
        List<String> problems = new ArrayList<>();
        int lines = 0;
        for (Descriptor descriptor : descriptors) {
            problems.addAll(lineProblems(descriptor, LOADER));
            lines += descriptor.lines().size();
        }
        assertThat(problems).isEmpty();
        assertThat(lines).isPositive();
    }

    /** Problems of each line of {@code descriptor}: class missing, wrong type, not concrete, no usable constructor. */
    static List<String> lineProblems(Descriptor descriptor, ClassLoader classLoader) {
        List<String> problems = new ArrayList<>();
        Class<?> type;
        try {
            type = Class.forName(descriptor.interfaceName(), false, classLoader);
        } catch (ClassNotFoundException | LinkageError e) {
            problems.add(descriptor.source() + ": interface " + descriptor.interfaceName() + " not loadable: " + e);
            return problems;
        }
        for (Descriptor.Line line : descriptor.lines()) {
            String where = descriptor.source() + " " + line;
            Class<?> implementation;
            try {
                implementation = Class.forName(line.className(), false, classLoader);
            } catch (ClassNotFoundException | LinkageError e) {
                problems.add(where + ": class not loadable: " + e);
                continue;
            }
            if (!type.isAssignableFrom(implementation)) {
                problems.add(where + ": " + implementation.getName() + " (expected: implements " + type.getName() + ")");
            }
            int modifiers = implementation.getModifiers();
            if (implementation.isInterface() || Modifier.isAbstract(modifiers) || !Modifier.isPublic(modifiers)) {
                problems.add(where + ": " + implementation.getName() + " (expected: a public concrete class)");
            }
            if (!hasUsableConstructor(implementation, type)) {
                problems.add(where + ": " + implementation.getName()
                        + " (expected: a public no-arg constructor, or a public constructor taking "
                        + type.getSimpleName() + " for a wrapper)");
            }
        }
        return problems;
    }

    @Test
    void loader_validatesEveryExtensionPoint_andResolvesEveryName() {
        List<String> problems = new ArrayList<>();
        try (ExtensionDirector director = new ExtensionDirector(LOADER)) {
            for (Descriptor descriptor : descriptors) {
                Class<?> type = loadQuietly(descriptor.interfaceName());
                if (type == null || !type.isAnnotationPresent(SPI.class)) {
                    continue;
                }
                ExtensionLoader<?> loader = director.getExtensionLoader(type);
                problems.addAll(loader.getProblems());
                String defaultName = loader.getDefaultExtensionName();
                if (defaultName != null && !loader.hasExtension(defaultName)) {
                    problems.add(type.getName() + ": @SPI default '" + defaultName + "' is not among "
                            + loader.getSupportedExtensions());
                }
                for (Descriptor.Line line : descriptor.lines()) {
                    Class<?> implementation = loadQuietly(line.className());
                    if (implementation == null || isWrapper(implementation, type)
                            || implementation.isAnnotationPresent(Adaptive.class)) {
                        continue;
                    }
                    List<String> names = line.names().isEmpty()
                            ? List.of(String.valueOf(loader.getExtensionName(implementation)))
                            : line.names();
                    for (String name : names) {
                        String where = descriptor.source() + " " + line + " name '" + name + "'";
                        if (!loader.hasExtension(name)) {
                            problems.add(where + ": not among " + loader.getSupportedExtensions());
                            continue;
                        }
                        Object raw = loader.getExtension(name, false);
                        if (raw.getClass() != implementation) {
                            problems.add(where + ": resolved to " + raw.getClass().getName());
                        }
                        if (!type.isInstance(loader.getExtension(name))) {
                            problems.add(where + ": wrapped instance is not a " + type.getName());
                        }
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    private static Class<?> loadQuietly(String name) {
        try {
            return Class.forName(name, false, LOADER);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    private static boolean hasUsableConstructor(Class<?> implementation, Class<?> type) {
        for (Constructor<?> constructor : implementation.getConstructors()) {
            Class<?>[] parameters = constructor.getParameterTypes();
            if (parameters.length == 0 || (parameters.length == 1 && parameters[0] == type)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isWrapper(Class<?> implementation, Class<?> type) {
        for (Constructor<?> constructor : implementation.getConstructors()) {
            Class<?>[] parameters = constructor.getParameterTypes();
            if (parameters.length == 1 && parameters[0] == type) {
                return true;
            }
        }
        return false;
    }
}
