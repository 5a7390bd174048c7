package dev.weft.rpc.spi.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the descriptors of one extension point: {@code META-INF/rpc/<binary name>} first, then
 * {@code META-INF/services/<binary name>}, from each given class loader, each file once.
 *
 * <p>Line format: {@code name=class}, {@code a,b=class} (aliases), or a bare {@code class};
 * {@code #} starts a comment; blank lines are ignored. Stateless and thread-safe.
 */
public final class DescriptorReader {

    private static final Logger LOG = LoggerFactory.getLogger(DescriptorReader.class);
    static final List<String> DIRECTORIES = List.of("META-INF/rpc/", "META-INF/services/");

    /** The result: the lines read and the problems met (unreadable files, malformed lines). */
    public record Result(List<DescriptorLine> lines, List<ExtensionProblem> problems) {
    }

    public Result read(String typeName, List<ClassLoader> classLoaders) {
        List<DescriptorLine> lines = new ArrayList<>();
        List<ExtensionProblem> problems = new ArrayList<>();
        for (String directory : DIRECTORIES) {
            String resource = directory + typeName;
            for (Map.Entry<URL, ClassLoader> file : findFiles(resource, classLoaders, problems)) {
                readFile(file.getKey(), file.getValue(), lines, problems);
            }
        }
        return new Result(lines, problems);
    }

    /**
     * Each file once (two loaders often see the same file through delegation), with the first
     * loader that saw it. Keyed by external form: {@code java.net.URL.equals} may resolve hosts.
     */
    private static List<Map.Entry<URL, ClassLoader>> findFiles(String resource, List<ClassLoader> classLoaders,
                                                              List<ExtensionProblem> problems) {
        Map<String, Map.Entry<URL, ClassLoader>> files = new LinkedHashMap<>();
        for (ClassLoader classLoader : classLoaders) {
            try {
                for (URL url : Collections.list(classLoader.getResources(resource))) {
                    files.putIfAbsent(url.toExternalForm(), Map.entry(url, classLoader));
                }
            } catch (IOException e) {
                problems.add(new ExtensionProblem(null, resource, "cannot list descriptor files: " + e));
            }
        }
        return new ArrayList<>(files.values());
    }

    private static void readFile(URL file, ClassLoader classLoader, List<DescriptorLine> lines, List<ExtensionProblem> problems) {
        try {
            URLConnection connection = file.openConnection();
            connection.setUseCaches(false); // do not keep jar files open behind the caller's back
            try (InputStream in = connection.getInputStream();
                 BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String raw;
                int number = 0;
                while ((raw = reader.readLine()) != null) {
                    number++;
                    parseLine(raw, file + ":" + number, classLoader, lines, problems);
                }
            }
        } catch (IOException e) {
            LOG.warn("Cannot read extension descriptor {}: {}", file, e.toString());
            problems.add(new ExtensionProblem(null, file.toString(), "cannot read descriptor: " + e));
        }
    }

    static void parseLine(String raw, String source, ClassLoader classLoader, List<DescriptorLine> lines, List<ExtensionProblem> problems) {
        String line = raw;
        int hash = line.indexOf('#');
        if (hash >= 0) {
            line = line.substring(0, hash);
        }
        line = line.strip();
        if (line.isEmpty()) {
            return;
        }
        List<String> names = List.of();
        String className = line;
        int eq = line.indexOf('=');
        if (eq >= 0) {
            className = line.substring(eq + 1).strip();
            List<String> declared = new ArrayList<>();
            for (String name : Arrays.asList(line.substring(0, eq).split(","))) {
                String trimmed = name.strip();
                if (!trimmed.isEmpty()) {
                    declared.add(trimmed);
                }
            }
            if (declared.isEmpty()) {
                problems.add(new ExtensionProblem(null, source, "line: '" + raw.strip() + "' (expected: name=class, names before '=')"));
                return;
            }
            names = declared;
            for (String name : declared) {
                if (!isValidName(name)) {
                    problems.add(new ExtensionProblem(name, source, "name: '" + name
                            + "' (expected: letters, digits, '.', '-', '_', '$')"));
                    return;
                }
            }
        }
        if (!isValidClassName(className)) {
            problems.add(new ExtensionProblem(names.isEmpty() ? null : names.get(0), source,
                    "class name: '" + className + "' (expected: a binary class name such as com.example.MyExtension)"));
            return;
        }
        lines.add(new DescriptorLine(names, className, source, classLoader));
    }

    static boolean isValidName(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!Character.isLetterOrDigit(c) && c != '.' && c != '-' && c != '_' && c != '$') {
                return false;
            }
        }
        return !name.isEmpty();
    }

    private static boolean isValidClassName(String className) {
        if (className.isEmpty() || className.startsWith(".") || className.endsWith(".") || className.contains("..")) {
            return false;
        }
        for (int i = 0; i < className.length(); i++) {
            char c = className.charAt(i);
            if (!Character.isJavaIdentifierPart(c) && c != '.') {
                return false;
            }
        }
        return Character.isJavaIdentifierStart(className.charAt(0));
    }
}
