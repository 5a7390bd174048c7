package dev.weft.rpc.spi;

import dev.weft.rpc.spi.internal.DescriptorLine;
import dev.weft.rpc.spi.internal.DescriptorReader;
import dev.weft.rpc.spi.internal.ExtensionProblem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The classes of one extension point, resolved from its descriptor lines: named extensions,
 * wrappers (in wrapping order), the hand-written adaptive class if any, and every problem met.
 *
 * <p>A bad line never breaks the other names: it becomes an {@link ExtensionProblem}. When a
 * name is bound to two different classes the first binding stays and the second is a problem
 * naming both sources. Classes are loaded with {@code initialize=false}. Immutable once built.
 */
final class ExtensionClasses {

    private static final Logger LOG = LoggerFactory.getLogger(ExtensionClasses.class);

    /** A named extension class and the descriptor line that bound it. */
    public record Named(String name, Class<?> type, String source) {
    }

    /** A wrapper class with its constructor taking the extension type and its {@link Wrapper} settings. */
    public record WrapperClass(Class<?> type, Constructor<?> constructor, int order, Set<String> matches,
                               Set<String> mismatches, String source) {

        /** Whether this wrapper applies to the extension called {@code name}. */
        public boolean appliesTo(String name) {
            return (matches.isEmpty() || matches.contains(name)) && !mismatches.contains(name);
        }
    }

    private final Class<?> type;
    private final Map<String, Named> named;
    private final Map<Class<?>, String> nameByClass;
    private final List<WrapperClass> wrappers;
    private final Class<?> adaptiveClass;
    private final Map<String, WrapperClass> wrapperNames;
    private final List<ExtensionProblem> problems;
    private final List<String> files;

    private ExtensionClasses(Class<?> type, Map<String, Named> named, Map<Class<?>, String> nameByClass,
                             List<WrapperClass> wrappers, Map<String, WrapperClass> wrapperNames, Class<?> adaptiveClass,
                             List<ExtensionProblem> problems, List<String> files) {
        this.type = type;
        this.named = Collections.unmodifiableMap(named);
        this.nameByClass = Collections.unmodifiableMap(nameByClass);
        this.wrappers = List.copyOf(wrappers);
        this.wrapperNames = Collections.unmodifiableMap(wrapperNames);
        this.adaptiveClass = adaptiveClass;
        this.problems = List.copyOf(problems);
        this.files = files;
    }

    /** Resolves the lines read for {@code type}; logs each problem once at WARN. */
    public static ExtensionClasses resolve(Class<?> type, DescriptorReader.Result read) {
        Builder builder = new Builder(type, read.files());
        builder.problems.addAll(read.problems());
        for (DescriptorLine line : read.lines()) {
            builder.add(line);
        }
        ExtensionClasses classes = builder.build();
        for (ExtensionProblem problem : classes.problems) {
            LOG.warn("Extension problem for {}: {}", type.getName(), problem);
        }
        return classes;
    }

    public Named named(String name) {
        return named.get(name);
    }

    /** The valid names, sorted. */
    public Set<String> names() {
        return Collections.unmodifiableSet(new TreeSet<>(named.keySet()));
    }

    public Map<String, Named> all() {
        return named;
    }

    /** The first name bound to {@code extensionClass}, or {@code null}. */
    public String nameOf(Class<?> extensionClass) {
        return nameByClass.get(extensionClass);
    }

    /** Wrappers, outermost first: by {@link Wrapper#order()}, then class name. */
    public List<WrapperClass> wrappers() {
        return wrappers;
    }

    /** The wrapper a descriptor line gave {@code name} to (explicitly or derived), or {@code null}. */
    public WrapperClass wrapperNamed(String name) {
        return wrapperNames.get(name);
    }

    /** The descriptor files read, in reading order. */
    public List<String> files() {
        return files;
    }

    /** The class annotated {@link Adaptive}, or {@code null}. */
    public Class<?> adaptiveClass() {
        return adaptiveClass;
    }

    public List<ExtensionProblem> problems() {
        return problems;
    }

    /** The problems recorded for lines that declared {@code name}; {@code null} gives those naming no extension. */
    public List<ExtensionProblem> problemsOf(String name) {
        List<ExtensionProblem> found = new ArrayList<>();
        for (ExtensionProblem problem : problems) {
            if (java.util.Objects.equals(name, problem.name())) {
                found.add(problem);
            }
        }
        return found;
    }

    /** The name a line without one gets: the simple name minus the extension point's simple name, lower-case. */
    static String derivedName(String className, Class<?> type) {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        simple = simple.substring(simple.lastIndexOf('$') + 1);
        String suffix = type.getSimpleName();
        if (simple.length() > suffix.length() && simple.endsWith(suffix)) {
            simple = simple.substring(0, simple.length() - suffix.length());
        }
        return simple.toLowerCase(Locale.ROOT);
    }

    private static final class Builder {
        private final Class<?> type;
        private final Map<String, Named> named = new LinkedHashMap<>();
        private final Map<Class<?>, String> nameByClass = new LinkedHashMap<>();
        private final Map<Class<?>, WrapperClass> wrappers = new LinkedHashMap<>();
        private final Map<String, WrapperClass> wrapperNames = new LinkedHashMap<>();
        private final List<String> files;
        private Class<?> adaptiveClass;
        private String adaptiveSource;
        private final List<ExtensionProblem> problems = new ArrayList<>();

        Builder(Class<?> type, List<String> files) {
            this.type = type;
            this.files = files;
        }

        void add(DescriptorLine line) {
            List<String> names = line.names().isEmpty()
                    ? List.of(derivedName(line.className(), type)) : line.names();
            try {
                classify(line, names);
            } catch (LinkageError e) {
                // e.g. NoClassDefFoundError: the class needs an optional dependency that is absent
                fail(names, line, "class: " + line.className() + " (expected: a class whose dependencies are on the class path; "
                        + e + ")");
            }
        }

        private void classify(DescriptorLine line, List<String> names) {
            Class<?> cls;
            try {
                cls = Class.forName(line.className(), false, line.classLoader());
            } catch (ClassNotFoundException e) {
                fail(names, line, "class: " + line.className() + " (expected: a class on the class path; not found)");
                return;
            } catch (LinkageError e) {
                fail(names, line, "class: " + line.className() + " (expected: a loadable class; " + e + ")");
                return;
            }
            if (!type.isAssignableFrom(cls)) {
                fail(names, line, "class: " + cls.getName() + " (expected: an implementation of " + type.getName() + ")");
                return;
            }
            int modifiers = cls.getModifiers();
            if (cls.isInterface() || Modifier.isAbstract(modifiers) || !Modifier.isPublic(modifiers)) {
                fail(names, line, "class: " + cls.getName() + " (expected: a public concrete class)");
                return;
            }
            if (cls.isAnnotationPresent(Adaptive.class)) {
                addAdaptive(cls, names, line);
                return;
            }
            Constructor<?> wrapperConstructor = constructor(cls, type);
            if (wrapperConstructor != null) {
                WrapperClass wrapper = addWrapper(cls, wrapperConstructor, line);
                for (String name : names) {
                    wrapperNames.putIfAbsent(name, wrapper);
                }
                return;
            }
            if (constructor(cls) == null) {
                fail(names, line, "class: " + cls.getName()
                        + " (expected: a public no-arg constructor, or a public constructor taking "
                        + type.getSimpleName() + " for a wrapper)");
                return;
            }
            for (String name : names) {
                Named existing = named.get(name);
                if (existing == null) {
                    named.put(name, new Named(name, cls, line.source()));
                    nameByClass.putIfAbsent(cls, name);
                } else if (existing.type() != cls) {
                    problems.add(new ExtensionProblem(name, line.source(), "name: '" + name + "' bound to "
                            + cls.getName() + " conflicts with " + existing.type().getName() + " bound at "
                            + existing.source() + " (expected: one class per name; the first binding is kept)"));
                }
            }
        }

        private void addAdaptive(Class<?> cls, List<String> names, DescriptorLine line) {
            if (constructor(cls) == null) {
                fail(names, line, "class: " + cls.getName() + " (expected: a public no-arg constructor on an @Adaptive class)");
            } else if (adaptiveClass == null) {
                adaptiveClass = cls;
                adaptiveSource = line.source();
            } else if (adaptiveClass != cls) {
                problems.add(new ExtensionProblem(null, line.source(), "@Adaptive class: " + cls.getName()
                        + " conflicts with " + adaptiveClass.getName() + " at " + adaptiveSource
                        + " (expected: one @Adaptive class per extension point; the first is kept)"));
            }
        }

        private WrapperClass addWrapper(Class<?> cls, Constructor<?> constructor, DescriptorLine line) {
            Wrapper settings = cls.getAnnotation(Wrapper.class);
            int order = settings == null ? 0 : settings.order();
            Set<String> matches = settings == null ? Set.of() : Set.of(settings.matches());
            Set<String> mismatches = settings == null ? Set.of() : Set.of(settings.mismatches());
            return wrappers.computeIfAbsent(cls, c -> new WrapperClass(c, constructor, order, matches, mismatches, line.source()));
        }

        private void fail(List<String> names, DescriptorLine line, String message) {
            for (String name : names) {
                problems.add(new ExtensionProblem(name, line.source(), message));
            }
        }

        ExtensionClasses build() {
            List<WrapperClass> ordered = new ArrayList<>(wrappers.values());
            ordered.sort(Comparator.comparingInt(WrapperClass::order).thenComparing(w -> w.type().getName()));
            return new ExtensionClasses(type, named, nameByClass, ordered, wrapperNames, adaptiveClass, problems, files);
        }
    }

    private static Constructor<?> constructor(Class<?> cls, Class<?>... parameterTypes) {
        try {
            return cls.getConstructor(parameterTypes);
        } catch (NoSuchMethodException | SecurityException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "ExtensionClasses[" + type.getName() + ": " + names() + "]";
    }
}
