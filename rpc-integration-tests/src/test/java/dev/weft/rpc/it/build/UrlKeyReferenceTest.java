package dev.weft.rpc.it.build;

import dev.weft.rpc.bootstrap.KnownKeys;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The URL key reference (docs/url-keys.md) is generated from the modules' declarations by
 * scripts/url-keys.py: every declared key has its row there, with its declaring module, so the
 * reference cannot fall behind a declaration (re-run the script when this fails).
 */
class UrlKeyReferenceTest {

    @Test
    void everyDeclaredKey_hasItsRowInTheReference() throws IOException {
        String reference = Files.readString(projectRoot().resolve("docs/url-keys.md"));
        Map<String, String> declared = KnownKeys.load(getClass().getClassLoader()).declared();

        List<String> missing = new ArrayList<>();
        declared.forEach((key, module) -> {
            if (!reference.contains("| `" + key + "` |") || !reference.contains("| " + module + " |")) {
                missing.add(key + " (" + module + ")");
            }
        });
        assertThat(declared).containsKeys("retries", "loadbalance", "filter", "root", "url");
        assertThat(missing).as("keys declared but not in docs/url-keys.md: run python3 scripts/url-keys.py").isEmpty();
    }

    /**
     * Each row says what its declaration says, word for word: an edit made to the table by hand is
     * lost at the next run of the script, so it has to be made in the declaration instead.
     */
    @Test
    void everyRow_isItsDeclarationWordForWord() throws IOException {
        Path root = projectRoot();
        String reference = Files.readString(root.resolve("docs/url-keys.md"));
        List<String> stale = new ArrayList<>();
        int rows = 0;
        try (var modules = Files.list(root)) {
            for (Path declaration : modules.map(m -> m.resolve("src/main/resources/" + KnownKeys.RESOURCE))
                    .filter(Files::isRegularFile).sorted().toList()) {
                String module = null;
                for (String line : Files.readAllLines(declaration)) {
                    String text = line.strip();
                    if (text.isEmpty() || text.startsWith("#")) {
                        continue;
                    }
                    if (text.startsWith("module:")) {
                        module = text.substring("module:".length()).strip();
                        continue;
                    }
                    String[] cells = text.split(" \\| ", -1);
                    assertThat(cells).as("%s: %s (expected: key | default | where | meaning)", declaration, text).hasSize(4);
                    String row = "| `" + cells[0] + "` | " + cells[1] + " | " + cells[2] + " | " + module + " | " + cells[3] + " |";
                    rows++;
                    if (!reference.contains(row + "\n")) {
                        stale.add(row);
                    }
                }
            }
        }
        assertThat(rows).isGreaterThan(40);
        assertThat(stale).as("rows of docs/url-keys.md that differ from their declaration: run python3 scripts/url-keys.py")
                .isEmpty();
    }

    private static Path projectRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve("scripts/url-keys.py"))) {
                return dir;
            }
        }
        throw new IllegalStateException("project root: not found above " + Path.of("").toAbsolutePath()
                + " (expected: a directory holding scripts/url-keys.py)");
    }
}
