package dev.weft.rpc.it.descriptor;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/** One {@code META-INF/rpc/<interface>} file found on the class path, with its meaningful lines. */
record Descriptor(String interfaceName, URL source, List<Line> lines) {

    static final String DIRECTORY = "META-INF/rpc/";

    /** A {@code name=class}, {@code a,b=class} or bare {@code class} line, comments and blanks removed. */
    record Line(int number, List<String> names, String className) {
        @Override
        public String toString() {
            return "line " + number + " (" + (names.isEmpty() ? "" : String.join(",", names) + "=") + className + ")";
        }
    }

    /**
     * Every descriptor visible to {@code loader}: each class-path root (directory or jar) holding
     * {@code META-INF/rpc/} is listed, whether or not the jar has directory entries.
     */
    static List<Descriptor> findAll(ClassLoader loader) throws IOException {
        Map<String, Descriptor> found = new LinkedHashMap<>();
        for (String root : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path path = Path.of(root);
            if (Files.isDirectory(path.resolve(DIRECTORY))) {
                try (Stream<Path> files = Files.list(path.resolve(DIRECTORY))) {
                    for (Path file : (Iterable<Path>) files::iterator) {
                        if (Files.isRegularFile(file)) {
                            add(found, file.getFileName().toString(), file.toUri().toURL());
                        }
                    }
                }
            } else if (root.endsWith(".jar") && Files.isRegularFile(path)) {
                try (JarFile jar = new JarFile(path.toFile())) {
                    for (JarEntry entry : (Iterable<JarEntry>) jar.stream()::iterator) {
                        String name = entry.getName();
                        if (!entry.isDirectory() && name.startsWith(DIRECTORY) && name.indexOf('/', DIRECTORY.length()) < 0) {
                            add(found, name.substring(DIRECTORY.length()),
                                    new URL("jar:" + path.toUri().toURL() + "!/" + name));
                        }
                    }
                }
            }
        }
        // Roots the class path property does not show (e.g. a manifest-only surefire jar).
        Enumeration<URL> directories = loader.getResources(DIRECTORY.substring(0, DIRECTORY.length() - 1));
        while (directories.hasMoreElements()) {
            URL directory = directories.nextElement();
            for (Map.Entry<String, URL> file : listDirectory(directory).entrySet()) {
                add(found, file.getKey(), file.getValue());
            }
        }
        return new ArrayList<>(found.values());
    }

    private static Map<String, URL> listDirectory(URL directory) throws IOException {
        Map<String, URL> files = new LinkedHashMap<>();
        if (directory.getProtocol().equals("file")) {
            try (Stream<Path> list = Files.list(Path.of(directory.toURI()))) {
                for (Path file : (Iterable<Path>) list::iterator) {
                    files.put(file.getFileName().toString(), file.toUri().toURL());
                }
            } catch (URISyntaxException e) {
                throw new IOException(directory + ": " + e, e);
            }
        } else if (directory.getProtocol().equals("jar")) {
            URLConnection connection = directory.openConnection();
            connection.setUseCaches(false);
            if (connection instanceof JarURLConnection) {
                try (JarFile jar = ((JarURLConnection) connection).getJarFile()) {
                    String jarUrl = directory.toString().substring(0, directory.toString().indexOf("!/") + 2);
                    for (JarEntry entry : (Iterable<JarEntry>) jar.stream()::iterator) {
                        String name = entry.getName();
                        if (!entry.isDirectory() && name.startsWith(DIRECTORY) && name.indexOf('/', DIRECTORY.length()) < 0) {
                            files.put(name.substring(DIRECTORY.length()), new URL(jarUrl + name));
                        }
                    }
                }
            }
        }
        return files;
    }

    private static void add(Map<String, Descriptor> found, String interfaceName, URL source) throws IOException {
        String key = source.toString();
        if (!found.containsKey(key)) {
            found.put(key, new Descriptor(interfaceName, source, read(source)));
        }
    }

    static List<Line> read(URL source) throws IOException {
        URLConnection connection = source.openConnection();
        connection.setUseCaches(false);
        String text;
        try (InputStream in = connection.getInputStream()) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Line> lines = new ArrayList<>();
        String[] raw = text.split("\r?\n|\r", -1);
        for (int i = 0; i < raw.length; i++) {
            String line = raw[i];
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            List<String> names = new ArrayList<>();
            String className = line;
            if (eq >= 0) {
                for (String name : line.substring(0, eq).split(",")) {
                    if (!name.isBlank()) {
                        names.add(name.strip());
                    }
                }
                className = line.substring(eq + 1).strip();
            }
            lines.add(new Line(i + 1, names, className));
        }
        return lines;
    }
}
