package dev.weft.rpc.spi.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the descriptors of one extension point: {@code META-INF/rpc/<binary name>} first, then
 * {@code META-INF/services/<binary name>}, from each given class loader, each file once.
 *
 * <p>Line format: {@code name=class}, {@code a,b=class} (aliases), or a bare {@code class};
 * {@code #} starts a comment; blank lines are ignored. A UTF-8 byte-order mark at the start of a
 * file is skipped; any other invisible character (a no-break space, a zero-width space, a control
 * character other than tab) fails its line, shown as <code>&#92;uXXXX</code> in the problem. A file larger
 * than {@value #MAX_FILE_BYTES} bytes or not valid UTF-8 is reported as a problem naming the file
 * and not read at all. Stateless and thread-safe.
 */
public final class DescriptorReader {

    static final List<String> DIRECTORIES = List.of("META-INF/rpc/", "META-INF/services/");
    /** The largest descriptor read; descriptors are a few lines, so anything larger is a mistake. */
    public static final int MAX_FILE_BYTES = 1 << 20;
    private static final char BYTE_ORDER_MARK = '\uFEFF';

    /**
     * The result: the lines read, the problems met (unreadable files, malformed lines) and the
     * descriptor files found (external form, in reading order).
     */
    public record Result(List<DescriptorLine> lines, List<ExtensionProblem> problems, List<String> files) {

        public Result {
            lines = List.copyOf(lines);
            problems = List.copyOf(problems);
            files = List.copyOf(files);
        }
    }

    public Result read(String typeName, List<ClassLoader> classLoaders) {
        List<DescriptorLine> lines = new ArrayList<>();
        List<ExtensionProblem> problems = new ArrayList<>();
        List<String> files = new ArrayList<>();
        for (String directory : DIRECTORIES) {
            String resource = directory + typeName;
            for (Map.Entry<URL, ClassLoader> file : findFiles(resource, classLoaders, problems)) {
                files.add(file.getKey().toExternalForm());
                readFile(file.getKey(), file.getValue(), lines, problems);
            }
        }
        return new Result(lines, problems, files);
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
        String text;
        try {
            URLConnection connection = file.openConnection();
            connection.setUseCaches(false); // do not keep jar files open behind the caller's back
            byte[] bytes;
            try (InputStream in = connection.getInputStream()) {
                bytes = in.readNBytes(MAX_FILE_BYTES + 1); // never more, whatever the file holds
            }
            if (bytes.length > MAX_FILE_BYTES) {
                problems.add(fileProblem(file, "descriptor size: more than " + MAX_FILE_BYTES
                        + " bytes (expected: at most " + MAX_FILE_BYTES + " bytes of name=class lines; the file is not read)"));
                return;
            }
            text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            problems.add(fileProblem(file, "descriptor encoding: not UTF-8 (expected: UTF-8 text; the file is not read)"));
            return;
        } catch (IOException e) {
            problems.add(fileProblem(file, "cannot read descriptor: " + e));
            return;
        }
        if (!text.isEmpty() && text.charAt(0) == BYTE_ORDER_MARK) {
            text = text.substring(1);
        }
        int number = 0;
        for (String raw : text.lines().toList()) {
            number++;
            parseLine(raw, file + ":" + number, classLoader, lines, problems);
        }
    }

    /** A problem with a whole file; logged once with the others when the extension point resolves. */
    private static ExtensionProblem fileProblem(URL file, String message) {
        return new ExtensionProblem(null, file.toString(), message);
    }

    static void parseLine(String raw, String source, ClassLoader classLoader, List<DescriptorLine> lines, List<ExtensionProblem> problems) {
        String line = raw;
        int hash = line.indexOf('#');
        if (hash >= 0) {
            line = line.substring(0, hash);
        }
        int leading = line.length() - line.stripLeading().length();
        line = line.strip();
        if (line.isEmpty()) {
            return;
        }
        int invisible = firstInvisible(line);
        if (invisible >= 0) {
            String message = "line: '" + visible(line) + "' (expected: no invisible characters; found "
                    + visible(line.substring(invisible, invisible + 1)) + " at column " + (leading + invisible + 1)
                    + "; a UTF-8 byte-order mark is accepted only at the start of the file)";
            List<String> intended = intendedNames(line);
            if (intended.isEmpty()) {
                problems.add(new ExtensionProblem(null, source, message));
            }
            for (String name : intended) {
                problems.add(new ExtensionProblem(name, source, message));
            }
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

    /**
     * Whether {@code c} prints as nothing or as a plain space although it is not one: control
     * characters other than tab, format characters (zero-width space, byte-order mark, direction
     * marks) and space separators other than the ASCII space (no-break space, thin space, ...).
     */
    static boolean isInvisible(char c) {
        if (c == ' ' || c == '\t') {
            return false;
        }
        return Character.isISOControl(c) || Character.getType(c) == Character.FORMAT
                || Character.isSpaceChar(c) || Character.isWhitespace(c);
    }

    private static int firstInvisible(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (isInvisible(text.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /** {@code text} with every invisible character written as <code>&#92;uXXXX</code>. */
    static String visible(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isInvisible(c)) {
                out.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** The names a line meant to declare, invisible characters removed, so asking for them shows its problem. */
    private static List<String> intendedNames(String line) {
        int eq = line.indexOf('=');
        if (eq < 0) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        for (String name : line.substring(0, eq).split(",")) {
            StringBuilder cleaned = new StringBuilder();
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                if (!isInvisible(c) && !Character.isWhitespace(c)) {
                    cleaned.append(c);
                }
            }
            if (cleaned.length() > 0) {
                names.add(cleaned.toString());
            }
        }
        return names;
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
