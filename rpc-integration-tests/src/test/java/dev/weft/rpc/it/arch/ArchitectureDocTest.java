package dev.weft.rpc.it.arch;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/architecture.md, the page the rules' messages point at, matches the build: a row for every
 * module of the parent POM, and for each module the rules know, its package root and every module
 * the rules let it use.
 */
class ArchitectureDocTest {

    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

    @Test
    void everyModuleOfTheBuild_hasItsRowInTheModuleTable() throws IOException {
        Path root = projectRoot();
        String page = Files.readString(root.resolve("docs/architecture.md"));
        Matcher modules = MODULE.matcher(Files.readString(root.resolve("pom.xml")));
        List<String> missing = new ArrayList<>();
        int count = 0;
        while (modules.find()) {
            count++;
            if (!page.contains("\n| `" + modules.group(1) + "` |")) {
                missing.add(modules.group(1));
            }
        }
        assertThat(count).isGreaterThan(10);
        assertThat(missing).as("modules without a row in docs/architecture.md").isEmpty();
    }

    @Test
    void everyRow_namesThePackageRootAndTheModulesTheRulesAllow() throws IOException {
        String page = Files.readString(projectRoot().resolve("docs/architecture.md"));
        List<String> stale = new ArrayList<>();
        for (WeftModule module : WeftModule.values()) {
            int start = page.indexOf("\n| `" + module.artifactId + "` |");
            assertThat(start).as("row of %s", module.artifactId).isNotNegative();
            String row = page.substring(start + 1, page.indexOf('\n', start + 1));
            if (!row.contains("`" + module.packageRoot + "`")) {
                stale.add(module.artifactId + ": package root " + module.packageRoot);
            }
            boolean allowsEveryPublished = row.contains("every published module");
            for (WeftModule allowed : module.allowedModules) {
                if (!allowsEveryPublished && !row.contains("everything") && !row.contains("the published modules")
                        && !row.matches(".*[ ,|]" + Pattern.quote(allowed.artifactId) + "[ ,(|].*")) {
                    stale.add(module.artifactId + ": may use " + allowed.artifactId);
                }
            }
        }
        assertThat(stale).as("what the ArchUnit rules allow but docs/architecture.md does not say").isEmpty();
    }

    private static Path projectRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve("docs/architecture.md"))) {
                return dir;
            }
        }
        throw new IllegalStateException("project root (with docs/architecture.md) not found above " + Path.of("").toAbsolutePath());
    }
}
