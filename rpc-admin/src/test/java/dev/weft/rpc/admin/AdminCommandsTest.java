package dev.weft.rpc.admin;

import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.filter.CallContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * weft-admin against a real embedded ZooKeeper and a running consumer calling three providers over
 * loopback sockets: each rule form of docs/operating.md, written by the admin, changes the running
 * consumer; refused rules and dry runs write nothing.
 */
class AdminCommandsTest {

    private static final String S = LiveCluster.SERVICE;
    private static final Set<String> ALL = Set.of("a", "b", "c");
    private static LiveCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = new LiveCluster();
    }

    @AfterAll
    static void stop() throws Exception {
        cluster.close();
    }

    @AfterEach
    void deleteRules() throws Exception {
        cluster.deleteRules();
        assertThat(LiveCluster.awaitCallers(() -> cluster.callers(false), ALL)).isEqualTo(ALL);
    }

    private static String written(LiveCluster.Run run) {
        assertThat(run.exitCode()).as(run.err()).isZero();
        Matcher id = Pattern.compile("written ([0-9a-f]{8})").matcher(run.out());
        assertThat(id.find()).as(run.out()).isTrue();
        return id.group(1);
    }

    @Test
    void override_writtenByTheAdmin_changesTheRunningConsumer_andDeleteRuleRestoresIt() throws Exception {
        LiveCluster.Run run = cluster.admin("override", S, "greet.mock=force:return degraded");
        String id = written(run);
        assertThat(run.out()).contains("consumers it applies to: 1 of 1")
                .contains("application=shop: greet.mock: (none) -> force:return degraded")
                .contains("providers it applies to (as those consumers see them): 3 of 3");

        assertThat(LiveCluster.awaitCallers(() -> cluster.callers(false), Set.of("degraded"))).containsExactly("degraded");
        assertThat(cluster.callers(true)).as("another method").isEqualTo(ALL);
        assertThat(cluster.admin("rules", S).out()).contains(id + "  0.0.0.0 {greet.mock=force:return degraded}, applies to 1 of 1 consumers");

        LiveCluster.Run delete = cluster.admin("delete-rule", S, id);
        assertThat(delete.exitCode()).as(delete.err()).isZero();
        assertThat(cluster.nodes("configurators")).isEmpty();
        assertThat(LiveCluster.awaitCallers(() -> cluster.callers(false), ALL)).isEqualTo(ALL);
    }

    @Test
    void mistypedOverride_isRefused_beforeTheRegistryIsContacted() throws Exception {
        // nothing listens on port 1: contacting it would end with exit code 2 after the timeout
        LiveCluster.Run unreachable = LiveCluster.Run.of(Arrays.asList("--registry", "zookeeper://127.0.0.1:1?timeout=60000",
                "override", S, "greet.mokc=force:return x"));
        assertThat(unreachable.exitCode()).isEqualTo(1);
        assertThat(unreachable.err()).contains("override of " + S + " refused; nothing written, the registry was not contacted")
                .contains("unknown key greet.mokc (did you mean 'greet.mock'?)");

        LiveCluster.Run badValue = cluster.admin("override", S, "retries=many", "timeout=300");
        assertThat(badValue.exitCode()).isEqualTo(1);
        assertThat(badValue.err()).contains("retries").contains("many");
        assertThat(badValue.out()).isEmpty();
        assertThat(cluster.nodes("configurators")).isEmpty();
    }

    @Test
    void dryRun_printsWhatWouldChange_andWritesNothing() throws Exception {
        LiveCluster.Run override = cluster.admin("override", S, "--address", cluster.addresses.get("b"), "--dry-run", "weight=50");
        assertThat(override.exitCode()).as(override.err()).isZero();
        assertThat(override.out()).contains("consumers it applies to: 0 of 1")
                .contains("providers it applies to (as those consumers see them): 1 of 3")
                .contains(cluster.addresses.get("b") + ": weight: (none) -> 50").contains("--dry-run: nothing written");

        LiveCluster.Run route = cluster.admin("route", S, "--dry-run", "--force", "method = greet => zone = asia");
        assertThat(route.exitCode()).as(route.err()).isZero();
        assertThat(route.out()).contains("calls it routes go to 0 of 3 providers -> those calls FAIL with 'no provider' (force=true)")
                .contains("--dry-run: nothing written");

        assertThat(cluster.nodes("configurators")).isEmpty();
        assertThat(cluster.nodes("routers")).isEmpty();
        assertThat(cluster.callers(false)).isEqualTo(ALL);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "method = greet => zone = eu                 | a     | a,b,c",
            "method = greet,bye => zone = eu*            | a,b   | a,b",
            "=> env != test                              | a,c   | a,c",
            "application = shop => zone = us             | c     | c",
            "application = other => zone = us            | a,b,c | a,b,c",
            "host = 127.0.0.* => port = PORT_B           | b     | b",
            "method = bye => host = 127.0.0.1 & env = *  | a,b,c | a,b,c",
            "method = greet => zone = asia               | a,b,c | a,b,c",
    })
    void routeRule_writtenByTheAdmin_routesTheRunningConsumer(String rule, String greet, String bye) throws Exception {
        String port = cluster.addresses.get("b").substring(cluster.addresses.get("b").indexOf(':') + 1);
        written(cluster.admin("route", S, rule.replace("PORT_B", port)));

        Set<String> expectedGreet = set(greet);
        assertThat(LiveCluster.awaitCallers(() -> cluster.callers(false), expectedGreet)).isEqualTo(expectedGreet);
        assertThat(LiveCluster.awaitCallers(() -> cluster.callers(true), set(bye))).isEqualTo(set(bye));
    }

    @Test
    void routeLeavingNoProvider_withForce_failsTheCall_namingTheRule() throws Exception {
        String id = written(cluster.admin("route", S, "--force", "method = greet => zone = asia"));

        assertThat(awaitFailure()).contains("condition rule " + id + " 'method = greet => zone = asia' (force=true) leaves no provider");
        assertThat(cluster.callers(true)).isEqualTo(ALL);
    }

    @Test
    void emptyThen_withForce_deniesTheCalls_itRoutes() throws Exception {
        written(cluster.admin("route", S, "--force", "method = greet =>"));

        assertThat(awaitFailure()).contains("'method = greet =>' (force=true) leaves no provider");
        assertThat(cluster.callers(true)).isEqualTo(ALL);
    }

    @Test
    void priority_higherAppliesFirst_andRulesShowsWhatEachLeaves() throws Exception {
        written(cluster.admin("route", S, "--priority", "1", "=> env = prod"));
        written(cluster.admin("route", S, "--priority", "9", "=> zone = eu-west"));

        assertThat(LiveCluster.awaitCallers(() -> cluster.callers(false), Set.of("b"))).containsExactly("b");
        assertThat(cluster.admin("rules", S).out()).contains("condition rules: 2")
                .contains("'=> env = prod' force=false priority=1, leaves 2 of 3 providers")
                .contains("'=> zone = eu-west' force=false priority=9, leaves 1 of 3 providers");
    }

    @Test
    void tagSetOnAnAddressByTheAdmin_canaryCallsGoThere_untaggedCallsNever() throws Exception {
        written(cluster.admin("override", S, "--address", cluster.addresses.get("a"), "tag=gray"));
        CallContext context = CallContext.of(cluster.consumers.director());

        assertThat(LiveCluster.awaitCallers(() -> cluster.callers(false), Set.of("b", "c"))).containsExactly("b", "c");
        try (CallContext.Scope scope = context.with("tag", "gray")) {
            assertThat(cluster.callers(false)).containsExactly("a");
        }
        try (CallContext.Scope scope = context.with("tag", "blue")) {
            assertThat(cluster.callers(false)).containsExactly("b", "c");
        }
        try (CallContext.Scope scope = context.with(Map.of("tag", "blue", "tag.force", "true"))) {
            assertThatThrownBy(() -> cluster.greeter.greet("x")).isInstanceOf(RpcException.class)
                    .hasMessageContaining("no provider has tag blue");
        }
    }

    @Test
    void rules_countsProvidersAsConsumersSeeThem_aTagSetOnlyByAnOverride_isCountedByATagRoute() throws Exception {
        written(cluster.admin("override", S, "--address", cluster.addresses.get("a"), "tag=canary"));
        written(cluster.admin("override", S, "--address", cluster.addresses.get("c"), "disabled=true"));
        written(cluster.admin("route", S, "=> tag = canary"));
        written(cluster.admin("route", S, "=> env = prod"));

        assertThat(LiveCluster.awaitCallers(() -> cluster.callers(false), Set.of("b"))).containsExactly("b");
        assertThat(cluster.admin("rules", S).out())
                .as("a is tagged only by the override; c is disabled, so the consumer lists a and b")
                .contains("'=> tag = canary' force=false priority=0, leaves 1 of 2 providers")
                .contains("'=> env = prod' force=false priority=0, leaves 1 of 2 providers");
        LiveCluster.Run route = cluster.admin("route", S, "--dry-run", "=> tag = canary & env = prod");
        assertThat(route.out()).contains("calls it routes go to 1 of 2 providers [" + cluster.addresses.get("a") + "]");
    }

    @Test
    void providers_registerTheirMethods_sorted() {
        assertThat(cluster.admin("providers", S).out().lines()).hasSize(3).allMatch(line -> line.contains("methods=bye%2Cgreet")
                || line.contains("methods=bye,greet"));
    }

    @Test
    void overrideNamingNoMethod_isRefused_withTheClosestMethod_andNothingWritten() throws Exception {
        LiveCluster.Run run = cluster.admin("override", S, "gret.timeout=500", "bye.retries=1");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("override of " + S + " refused; nothing written")
                .contains("gret.timeout (no method gret in " + S + "; did you mean 'greet.timeout'?)")
                .doesNotContain("bye.retries");
        assertThat(run.out()).isEmpty();
        assertThat(cluster.nodes("configurators")).isEmpty();
    }

    @Test
    void routeNamingNoMethod_isRefused_withTheClosestMethod_andNothingWritten() throws Exception {
        LiveCluster.Run typo = cluster.admin("route", S, "method = greet,by => zone = eu");
        assertThat(typo.exitCode()).isEqualTo(1);
        assertThat(typo.err()).contains("route of " + S + " refused; nothing written")
                .contains("method by (no method by in " + S + "; did you mean 'bye'?)");
        LiveCluster.Run prefix = cluster.admin("route", S, "method = find* => zone = eu");
        assertThat(prefix.exitCode()).isEqualTo(1);
        assertThat(prefix.err()).contains("method find* (no method of " + S + " starts with 'find'; methods: [bye, greet])");
        assertThat(cluster.nodes("routers")).isEmpty();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "override | greet.timeout=500             | methods it changes: greet [greet.timeout]",
            "override | timeout=500                   | methods it changes: bye [timeout], greet [timeout]",
            "override | bye.retries=1                 | methods it changes: bye [bye.retries]",
            "override | hash.nodes=80                 | methods it changes: bye [hash.nodes], greet [hash.nodes]",
            "route    | method = greet => zone = eu   | methods it routes: greet",
            "route    | method = b* => zone = eu      | methods it routes: bye",
            "route    | method != greet => zone = eu  | methods it routes: bye",
            "route    | => zone = eu                  | methods it routes: bye, greet",
    })
    void preview_namesTheMethodsTheRuleChangesOrRoutes(String command, String operand, String line) throws Exception {
        assertThat(dryRun(command.equals("override") ? "configurators" : "routers", command, S, "--dry-run", operand))
                .contains("methods of " + S + " (as its providers list them): bye, greet")
                .contains(line + "\n");
    }

    @Test
    void malformedRoute_isRefusedBeforeWriting_andOneWrittenByAnotherTool_isRefusedByTheConsumer() throws Exception {
        LiveCluster.Run twoArrows = cluster.admin("route", S, "method = greet => zone = eu => env = prod");
        assertThat(twoArrows.exitCode()).isEqualTo(1);
        assertThat(twoArrows.err()).contains("expected: one '=>' between when and then");
        assertThat(cluster.nodes("routers")).isEmpty();

        written(cluster.admin("route", S, "=> zone = us"));
        assertThat(LiveCluster.awaitCallers(() -> cluster.callers(false), Set.of("c"))).containsExactly("c");
        String bad = "condition://0.0.0.0/" + S + "?category=routers&dynamic=false&forse=true&rule="
                + URLEncoder.encode("=> zone = eu", StandardCharsets.UTF_8);
        cluster.operator.create().forPath("/weft/" + S + "/routers/" + URLEncoder.encode(bad, StandardCharsets.UTF_8));
        Exporter<Greeter> d = cluster.providers.export(Greeter.class, new Greeter() {
            @Override
            public String greet(String who) {
                return "d";
            }

            @Override
            public String bye(String who) {
                return "d";
            }
        }, "weft://127.0.0.1:0?zone=us");
        try {
            assertThat(LiveCluster.awaitCallers(() -> cluster.callers(false), Set.of("c", "d")))
                    .as("the rules accepted last keep serving, and follow a new provider").containsExactly("c", "d");
            assertThat(cluster.admin("rules", S).out()).contains("REFUSED by consumers: routing rule key: forse");
        } finally {
            d.unexport();
        }
    }

    @Test
    void digestCredentials_thePasswordIsNeverPrinted() {
        String port = cluster.registry.substring("zookeeper://127.0.0.1:".length(), cluster.registry.indexOf('?'));
        LiveCluster.Run services = LiveCluster.Run.of(Arrays.asList("--registry",
                "zookeeper://ops:s3cret@127.0.0.1:" + port + "?timeout=2000", "services"));
        assertThat(services.exitCode()).as(services.err()).isZero();
        assertThat(services.out()).contains(S);

        LiveCluster.Run unreachable = LiveCluster.Run.of(Arrays.asList("--registry",
                "zookeeper://ops:s3cret@127.0.0.1:1?timeout=300&session=1000", "rules", S));
        assertThat(unreachable.exitCode()).isEqualTo(2);
        assertThat(unreachable.err()).contains("could not be read").doesNotContain("s3cret");
        assertThat(services.out() + services.err()).doesNotContain("s3cret");
    }

    @Test
    void listing_servicesProvidersConsumers() {
        assertThat(cluster.admin("services").out()).contains(S);
        assertThat(cluster.admin("providers", S).out().lines()).hasSize(3).allMatch(line -> line.startsWith("weft://127.0.0.1:"));
        assertThat(cluster.admin("consumers", S).out()).contains("application=shop");
    }

    /** What the admin printed for {@code args} (a dry run: it succeeds and the {@code category} folder stays empty). */
    private static String dryRun(String category, String... args) throws Exception {
        LiveCluster.Run run = cluster.admin(args);
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(cluster.nodes(category)).isEmpty();
        return run.out();
    }

    /** The message of the first failed greet within 10 s. */
    private static String awaitFailure() throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                cluster.greeter.greet("x");
            } catch (RpcException e) {
                return e.getMessage();
            }
            Thread.sleep(50);
        }
        return "no failure within 10 s";
    }

    private static Set<String> set(String csv) {
        return new TreeSet<>(Arrays.asList(csv.split(",")));
    }
}
