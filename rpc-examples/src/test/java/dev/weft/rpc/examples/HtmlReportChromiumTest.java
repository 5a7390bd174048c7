package dev.weft.rpc.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The HTML report in a real browser: headless Chromium (the OS package {@code chromium}; {@code .ci/run}
 * installs it) loads the page with a probe script appended, which writes what the browser laid out into
 * the DOM; {@code --dump-dom} prints it. Console messages and page errors appear on Chromium's log.
 */
class HtmlReportChromiumTest {

    private static final long BROWSER_SECONDS = 90;
    private static final String PROBE = """
            <script>
            window.addEventListener('error', function (e) { document.body.setAttribute('data-page-error', String(e.message)); });
            (function () {
              var lines = [];
              var svgs = document.querySelectorAll('svg');
              for (var i = 0; i < svgs.length; i++) {
                var box = svgs[i].getBoundingClientRect();
                lines.push('svg ' + (svgs[i].id || i) + ' ' + Math.round(box.width) + 'x' + Math.round(box.height)
                    + ' markers=' + svgs[i].querySelectorAll('.event-marker').length
                    + ' lines=' + svgs[i].querySelectorAll('polyline').length);
              }
              var pre = document.createElement('pre');
              pre.id = 'probe';
              pre.textContent = lines.join('\\n');
              document.body.appendChild(pre);
            })();
            </script>
            """;
    private static final Pattern SVG_LINE = Pattern.compile("svg (\\S+) (\\d+)x(\\d+) markers=(\\d+) lines=(\\d+)");

    @Test
    void report_laysOutEveryChart_withTheEventMarkers_andNoError(@TempDir Path dir) throws Exception {
        String html = LiveChartTest.report();
        Path page = dir.resolve("report.html");
        Files.writeString(page, html.replace("</body>", PROBE + "</body>"), StandardCharsets.UTF_8);

        Browser browser = dumpDom(dir, page);

        assertThat(browser.exitCode).as("chromium exit code; log:%n%s", browser.log).isZero();
        assertThat(browser.dom).doesNotContainPattern("<body[^>]*data-page-error");
        assertThat(browser.log).doesNotContain("CONSOLE", "Uncaught");
        List<String> rows = SVG_LINE.matcher(browser.dom).results().map(r -> r.group()).toList();
        long expectedSvgs = html.split("<svg ", -1).length - 1;
        assertThat(rows).as("probe output in%n%s", browser.dom).hasSize((int) expectedSvgs);
        for (String row : rows) {
            Matcher m = SVG_LINE.matcher(row);
            assertThat(m.matches()).isTrue();
            assertThat(Integer.parseInt(m.group(2))).as(row).isPositive();
            assertThat(Integer.parseInt(m.group(3))).as(row).isPositive();
        }
        assertThat(rows).anySatisfy(r -> assertThat(r).startsWith("svg chart-calls ").contains("markers=11 lines=7"));
        assertThat(rows).anySatisfy(r -> assertThat(r).startsWith("svg chart-p99 ").contains("markers=11 lines=1"));
    }

    private record Browser(int exitCode, String dom, String log) {
    }

    private static Browser dumpDom(Path dir, Path page) throws IOException, InterruptedException {
        String chromium = findChromium();
        Path profile = Files.createDirectory(dir.resolve("profile"));
        Path dom = dir.resolve("dom.html");
        Path log = dir.resolve("chromium.log");
        Process process = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0", "--dump-dom", page.toUri().toString())
                .redirectOutput(dom.toFile()).redirectError(log.toFile()).start();
        if (!process.waitFor(BROWSER_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("chromium did not finish in " + BROWSER_SECONDS + " s; log:%n" + Files.readString(log));
        }
        return new Browser(process.exitValue(), Files.readString(dom), Files.readString(log));
    }

    private static String findChromium() {
        for (String name : List.of("chromium", "chromium-browser")) {
            for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                Path candidate = Path.of(directory, name);
                if (Files.isExecutable(candidate)) {
                    return candidate.toString();
                }
            }
        }
        throw new AssertionError("chromium: not on PATH (expected: the OS package, e.g. apt-get install -y chromium;"
                + " .ci/run installs it)");
    }
}
