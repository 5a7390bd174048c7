package dev.weft.rpc.spi;

import dev.weft.rpc.common.NameSuggestions;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.internal.AdaptiveClassGenerator;
import dev.weft.rpc.spi.internal.AdaptiveMethod;
import dev.weft.rpc.spi.internal.AdaptiveSupport;
import dev.weft.rpc.spi.internal.DescriptorReader;
import dev.weft.rpc.spi.internal.ExtensionProblem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Finds, creates and caches the extensions of one extension point (an interface annotated
 * {@link SPI}) for one {@link ExtensionDirector}.
 *
 * <p>Extensions are listed in {@code META-INF/rpc/<interface binary name>} (then
 * {@code META-INF/services/}) and created lazily, once per name: {@link #getExtension(String)}
 * returns the instance wrapped by every applicable wrapper (lowest {@link Wrapper#order()}
 * outermost, ties by class name), {@link #getExtension(String, boolean) getExtension(name, false)}
 * the raw one. After construction an extension receives its director if it is
 * {@link ExtensionDirectorAware}, then the adaptive extension of every {@link SPI} type it has a
 * public setter for (unless {@link DisableInject}).
 *
 * <p>Errors name the extension point, the name, what is available and, for a failed descriptor
 * line, its file and line number; {@link #validate()} reports every problem at once.
 *
 * <p>Thread-safe: lookups of created extensions are one concurrent-map read; creation is
 * serialised per director and happens once per name.
 *
 * @param <T> the extension point
 */
public final class ExtensionLoader<T> {

    private static final Logger LOG = LoggerFactory.getLogger(ExtensionLoader.class);
    private static final String ADAPTIVE = "<adaptive>";

    private final Class<T> type;
    private final ExtensionDirector director;
    private final String defaultName;
    private final ConcurrentMap<String, T> wrapped = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, T> raw = new ConcurrentHashMap<>();
    /** Aliases of one class share its instance. Only touched under the director's creation lock. */
    private final java.util.Map<Class<?>, T> rawByClass = new java.util.HashMap<>();
    /**
     * Why a class's static initialiser failed, by class: the JVM reports only the first attempt's
     * cause, later ones fail with a bare "Could not initialize class".
     */
    private final ConcurrentMap<Class<?>, String> initialiserFailures = new ConcurrentHashMap<>();
    private volatile ExtensionClasses classes;
    private volatile T adaptive;

    ExtensionLoader(Class<T> type, ExtensionDirector director) {
        this.type = type;
        this.director = director;
        String declared = type.getAnnotation(SPI.class).value().strip();
        this.defaultName = declared.isEmpty() ? null : declared;
    }

    /** The loader of {@code type} in the {@linkplain ExtensionDirector#getDefault() default director}. */
    public static <T> ExtensionLoader<T> getExtensionLoader(Class<T> type) {
        return ExtensionDirector.getDefault().getExtensionLoader(type);
    }

    /** The extension called {@code name}, wrapped; created on first use. */
    public T getExtension(String name) {
        return getExtension(name, true);
    }

    /**
     * The extension called {@code name}, wrapped or raw; each form is created once.
     *
     * @throws IllegalArgumentException when name is null or empty
     * @throws IllegalStateException    when no valid extension has that name (the message lists the
     *                                  available names, a suggestion and any failed descriptor line for it),
     *                                  when creating it failed, or when the director is closed
     */
    public T getExtension(String name, boolean wrap) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("Extension name: " + (name == null ? "null" : "''")
                    + " (expected: a name of " + type.getName() + ", one of " + getSupportedExtensions() + ")");
        }
        T instance = (wrap ? wrapped : raw).get(name);
        if (instance != null) {
            director.requireOpen();
            return instance;
        }
        return director.create(type.getName() + ":" + name + (wrap ? "" : " (raw)"),
                () -> wrap ? createWrapped(name) : createRaw(name));
    }

    /** Whether a valid extension is called {@code name}. */
    public boolean hasExtension(String name) {
        return name != null && classes().named(name) != null;
    }

    /** The valid extension names, sorted. */
    public Set<String> getSupportedExtensions() {
        return classes().names();
    }

    /** The name declared by {@link SPI#value()}, or {@code null} when it declares none. */
    public String getDefaultExtensionName() {
        return defaultName;
    }

    /**
     * The default extension.
     *
     * @throws IllegalStateException when {@link SPI} declares no default
     */
    public T getDefaultExtension() {
        if (defaultName == null) {
            throw new IllegalStateException("Default extension of " + type.getName()
                    + ": none (expected: @SPI(\"name\") on the interface; available: " + getSupportedExtensions() + ")");
        }
        return getExtension(defaultName);
    }

    /**
     * The class bound to {@code name}, loaded but neither initialised nor instantiated: for callers
     * that decide by type whether they need the extension at all.
     *
     * @throws IllegalStateException when no valid extension has that name (the message as for
     *                               {@link #getExtension(String)})
     */
    public Class<?> getExtensionClass(String name) {
        ExtensionClasses.Named named = name == null ? null : classes().named(name);
        if (named == null) {
            throw unknown(String.valueOf(name));
        }
        return named.type();
    }

    /** The first name bound to {@code extensionClass}, or {@code null}. */
    public String getExtensionName(Class<?> extensionClass) {
        return extensionClass == null ? null : classes().nameOf(extensionClass);
    }

    /**
     * The adaptive extension: the {@link Adaptive}-annotated class from the descriptors, or one
     * generated from the interface's {@link Adaptive} methods. Created once.
     *
     * @throws IllegalStateException when there is neither, or a method cannot be made adaptive
     */
    public T getAdaptiveExtension() {
        T instance = adaptive;
        if (instance != null) {
            director.requireOpen();
            return instance;
        }
        return director.create(type.getName() + ":" + ADAPTIVE, () -> {
            T existing = adaptive;
            if (existing != null) {
                return existing;
            }
            T created = createAdaptive();
            adaptive = created;
            return created;
        });
    }

    /**
     * A readable description of how the adaptive extension dispatches (one line per method), or
     * of the hand-written adaptive class. For debugging URL-driven selection.
     */
    public String describeAdaptive() {
        Class<?> handWritten = classes().adaptiveClass();
        if (handWritten != null) {
            return "adaptive " + type.getName() + " = hand-written " + handWritten.getName();
        }
        return newSupport().describe();
    }

    /**
     * The activated extensions for {@code url}: automatic ones ({@link Activate}) matching
     * {@code group} and the URL, plus those named in the URL parameter {@code key}
     * ({@code -name} removes, {@code -default} removes all automatic ones, {@code default} places them).
     * Every name the parameter lists, added or removed, is checked before any extension is created.
     *
     * @throws IllegalStateException when the parameter lists a name no valid extension has (a
     *                               removal included: a misspelt {@code -name} would otherwise leave
     *                               the extension on), or a lone {@code -}; or when creating one failed
     */
    public List<T> getActivateExtensions(URL url, String key, String group) {
        ExtensionClasses loaded = classes();
        for (String name : ActivateSelector.Listed.of(url, key).names()) {
            if (loaded.named(name) == null) {
                throw new IllegalStateException("URL parameter " + key + "=" + url.getParameter(key) + ": "
                        + unknown(name).getMessage());
            }
        }
        List<T> result = new ArrayList<>();
        for (String name : ActivateSelector.select(loaded, url, key, group)) {
            result.add(getExtension(name));
        }
        return result;
    }

    /** Every problem of this extension point (failed lines, conflicts, adaptive generation), as text; empty when none. */
    public List<String> getProblems() {
        List<String> problems = new ArrayList<>();
        for (ExtensionProblem problem : classes().problems()) {
            problems.add(problem.toString());
        }
        if (defaultName != null && classes().named(defaultName) == null) {
            problems.add("@SPI default: '" + defaultName + "' (expected: a name bound by a descriptor; available: "
                    + getSupportedExtensions() + "; " + filesRead() + ")");
        }
        if (classes().adaptiveClass() == null && AdaptiveMethods.hasAny(type)) {
            try {
                AdaptiveMethods.of(type);
            } catch (IllegalStateException e) {
                problems.add(e.getMessage());
            }
        }
        return problems;
    }

    /**
     * Checks everything at once.
     *
     * @throws IllegalStateException listing every problem, one per line, when there is any
     */
    public void validate() {
        List<String> problems = getProblems();
        if (!problems.isEmpty()) {
            throw new IllegalStateException(problems.size() + " problem(s) with extension point " + type.getName()
                    + ":\n  " + String.join("\n  ", problems));
        }
    }

    /** The extension point. */
    public Class<T> getType() {
        return type;
    }

    @Override
    public String toString() {
        return "ExtensionLoader[" + type.getName() + "]";
    }

    // ------------------------------------------------------------------ creation (under the director's lock)

    private T createRaw(String name) {
        T existing = raw.get(name);
        if (existing != null) {
            return existing;
        }
        ExtensionClasses.Named named = classes().named(name);
        if (named == null) {
            throw unknown(name);
        }
        T instance = rawByClass.get(named.type());
        if (instance == null) {
            instance = instantiate(named.type(), name, named.source());
            rawByClass.put(named.type(), instance);
        }
        raw.put(name, instance);
        return instance;
    }

    private T createWrapped(String name) {
        T existing = wrapped.get(name);
        if (existing != null) {
            return existing;
        }
        T instance = getExtension(name, false);
        List<ExtensionClasses.WrapperClass> wrappers = classes().wrappers();
        for (int i = wrappers.size() - 1; i >= 0; i--) {
            ExtensionClasses.WrapperClass wrapper = wrappers.get(i);
            if (wrapper.appliesTo(name)) {
                instance = construct(wrapper.constructor(), name, wrapper.source(), instance);
                afterConstruction(instance, name, wrapper.source());
            }
        }
        wrapped.put(name, instance);
        return instance;
    }

    private T createAdaptive() {
        Class<?> handWritten = classes().adaptiveClass();
        if (handWritten != null) {
            return instantiate(handWritten, ADAPTIVE, handWritten.getName());
        }
        T instance = type.cast(AdaptiveClassGenerator.newInstance(type, newSupport()));
        director.created(instance);
        if (LOG.isDebugEnabled()) {
            LOG.debug("Generated {}", instance);
        }
        return instance;
    }

    private AdaptiveSupport newSupport() {
        List<AdaptiveMethod> methods = AdaptiveMethods.of(type);
        return new AdaptiveSupport(type, defaultName, methods, this::getExtension);
    }

    private T instantiate(Class<?> cls, String name, String source) {
        Constructor<?> constructor;
        try {
            constructor = cls.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("Extension '" + name + "' of " + type.getName() + " at " + source
                    + ": " + cls.getName() + " (expected: a public no-arg constructor)", e);
        }
        T instance = construct(constructor, name, source);
        afterConstruction(instance, name, source);
        return instance;
    }

    private T construct(Constructor<?> constructor, String name, String source, Object... arguments) {
        try {
            return type.cast(constructor.newInstance(arguments));
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ExtensionCycleException) {
                throw (ExtensionCycleException) cause;
            }
            throw new IllegalStateException("Extension '" + name + "' of " + type.getName() + " at " + source
                    + ": constructor of " + constructor.getDeclaringClass().getName() + " threw " + cause, cause);
        } catch (ExceptionInInitializerError e) {
            String failure = "its static initialiser threw " + e.getCause();
            initialiserFailures.put(constructor.getDeclaringClass(), failure);
            throw new IllegalStateException("Extension '" + name + "' of " + type.getName() + " at " + source
                    + ": cannot construct " + constructor.getDeclaringClass().getName() + " (" + failure + ")", e);
        } catch (ReflectiveOperationException | LinkageError e) {
            String initialiser = initialiserFailures.get(constructor.getDeclaringClass());
            throw new IllegalStateException("Extension '" + name + "' of " + type.getName() + " at " + source
                    + ": cannot construct " + constructor.getDeclaringClass().getName() + " (" + e
                    + (initialiser == null ? "" : "; " + initialiser + " on the first attempt") + ")", e);
        }
    }

    private void afterConstruction(T instance, String name, String source) {
        director.created(instance);
        if (instance instanceof ExtensionDirectorAware) {
            ((ExtensionDirectorAware) instance).setExtensionDirector(director);
        }
        try {
            Injector.inject(instance, dependency -> director.getExtensionLoader(dependency).getAdaptiveExtension());
        } catch (ExtensionCycleException e) {
            throw e;
        } catch (IllegalStateException e) {
            throw new IllegalStateException("Extension '" + name + "' of " + type.getName() + " at " + source + ": "
                    + e.getMessage(), e);
        }
    }

    private IllegalStateException unknown(String name) {
        ExtensionClasses loaded = classes();
        List<ExtensionProblem> problems = loaded.problemsOf(name);
        Set<String> available = getSupportedExtensions();
        StringBuilder message = new StringBuilder("No extension '").append(name).append("' for ").append(type.getName())
                .append(" (available: ").append(available);
        ExtensionClasses.WrapperClass wrapper = loaded.wrapperNamed(name);
        if (wrapper != null) {
            message.append("; '").append(name).append("' names the wrapper ").append(wrapper.type().getName())
                    .append(" at ").append(wrapper.source())
                    .append(", which wraps the other extensions and cannot be selected by name");
        } else if (problems.isEmpty()) {
            String suggestion = NameSuggestions.closest(name, available);
            if (suggestion != null) {
                message.append("; did you mean '").append(suggestion).append("'?");
            }
        } else {
            message.append("; its descriptor line failed: ");
            appendProblems(message, problems);
        }
        List<ExtensionProblem> unnamed = loaded.problemsOf(null);
        if (problems.isEmpty() && !unnamed.isEmpty()) {
            message.append("; descriptor problems naming no extension: ");
            appendProblems(message, unnamed);
        }
        if (name.equals(defaultName)) {
            message.append("; '").append(name).append("' is the default named by @SPI on ").append(type.getSimpleName())
                    .append("; ").append(filesRead());
        }
        return new IllegalStateException(message.append(')').toString());
    }

    private static void appendProblems(StringBuilder message, List<ExtensionProblem> problems) {
        for (int i = 0; i < problems.size(); i++) {
            ExtensionProblem problem = problems.get(i);
            message.append(i == 0 ? "" : "; ").append(problem.source()).append(": ").append(problem.message());
        }
    }

    private String filesRead() {
        List<String> files = classes().files();
        return files.isEmpty()
                ? "descriptor files read: none (expected: META-INF/rpc/" + type.getName() + " on the class path)"
                : "descriptor files read: " + files;
    }

    private ExtensionClasses classes() {
        ExtensionClasses loaded = classes;
        if (loaded == null) {
            synchronized (this) {
                loaded = classes;
                if (loaded == null) {
                    director.requireOpen();
                    loaded = ExtensionClasses.resolve(type,
                            new DescriptorReader().read(type.getName(), director.classLoadersFor(type)));
                    classes = loaded;
                }
            }
        }
        return loaded;
    }

}
