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
