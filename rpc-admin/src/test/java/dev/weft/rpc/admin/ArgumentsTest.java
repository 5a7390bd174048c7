package dev.weft.rpc.admin;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line is checked whole before anything is contacted. */
class ArgumentsTest {

    private static LiveCluster.Run run(String... args) {
        return LiveCluster.Run.of(List.of(args));
    }

    @Test
    void help_listsEveryCommand() {
        LiveCluster.Run help = run("--help");
        assertThat(help.exitCode()).isZero();
        for (String command : Arguments.COMMANDS) {
            assertThat(help.out()).contains("  " + Arguments.usage(command));
        }
    }

    @Test
    void mistypedCommandOrOption_isNamed_withTheClosest() {
        assertThat(run("--registry", "zookeeper://127.0.0.1:2181", "overide", "a.B", "x=1").err())
                .contains("command: overide (expected: one of [services, providers, consumers, rules, override, route, delete-rule];"
                        + " did you mean 'override'?");
        LiveCluster.Run option = run("--registry", "zookeeper://127.0.0.1:2181", "route", "a.B", "--forse", "=> a = b");
        assertThat(option.exitCode()).isEqualTo(1);
        assertThat(option.err()).contains("option: --forse").contains("did you mean '--force'?");
    }

    @Test
    void badOperands_areRefused() {
        assertThat(run("override", "a.B", "x=1").err()).contains("--registry: none (expected: --registry zookeeper://host:port)");
        assertThat(run("--registry", "zookeeper://127.0.0.1:2181", "override", "a.B", "--address", "10.0.0.1", "x=1").err())
                .contains("--address: 10.0.0.1 (expected: host:port of a provider");
        assertThat(run("--registry", "zookeeper://127.0.0.1:2181", "override", "a.B", "timeout").err())
                .contains("override: timeout (expected: key=value");
        assertThat(run("--registry", "zookeeper://127.0.0.1:2181", "rules", "a.B", "--force").err())
                .contains("--force: applies to route only");
        assertThat(run("--registry", "zookeeper://127.0.0.1:2181", "rules", "not a service").err())
                .contains("rules service: not a service (expected: an interface name");
        assertThat(run("--registry", "memory://x", "services").err()).contains("expected: zookeeper://");
        assertThat(run("--registry", "zookeeper://127.0.0.1:2181", "route", "a.B", "--priority", "high", "=> a = b").err())
                .contains("--priority: high (expected: an integer");
    }
}
