package dev.weft.rpc.registry;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.filter.CallContext;
import dev.weft.rpc.proxy.ProxyFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Condition rules and tag routing as a consumer applies them: every rule form of
 * docs/operating.md, over the memory registry, through the cluster, the mock wrapper and a proxy.
 * (The same over ZooKeeper and sockets: rpc-admin's tests.)
 */
class RoutingRuleTest {

    private final Fixture fixture = new Fixture();
    private RegistryDirectory<DemoService> directory;
    private DemoService service;

    @BeforeEach
    void threeProviders() {
        fixture.provider("10.0.0.1:1", "zone=eu&env=prod");
        fixture.provider("10.0.0.2:2", "zone=eu-west&env=test");
        fixture.provider("10.0.0.3:3", "zone=us&env=prod");
        directory = fixture.directory(Fixture.CONSUMER + "&loadbalance=roundrobin");
        service = fixture.director.getExtensionLoader(ProxyFactory.class).getAdaptiveExtension()
                .getProxy(fixture.director.getExtensionLoader(Cluster.class).getAdaptiveExtension().join(directory));
    }

    @AfterEach
    void close() {
        directory.destroy();
        fixture.close();
    }

    @Test
    void methodCondition_routesThatMethodOnly() {
        fixture.route("method = sayHello => zone = eu", "");

        assertThat(callers(DemoService::sayHello)).containsExactly("10.0.0.1:1");
        assertThat(callers(DemoService::sayBye)).containsExactly("10.0.0.1:1", "10.0.0.2:2", "10.0.0.3:3");
    }

    @Test
    void valueLists_notEquals_prefixAndAnyValue() {
        fixture.route("method = sayHello,sayBye => zone = eu* & host != 10.0.0.1", "");
        assertThat(callers(DemoService::sayHello)).containsExactly("10.0.0.2:2");

        fixture.registry.unregister(fixture.route("method = sayHello,sayBye => zone = eu* & host != 10.0.0.1", ""));
        fixture.route("=> port = 1,3 & env = *", "");
        assertThat(callers(DemoService::sayBye)).containsExactly("10.0.0.1:1", "10.0.0.3:3");
    }

    @Test
    void emptyWhen_routesEveryCall_consumerKeysInWhen_chooseTheConsumers() {
        fixture.route("=> env = prod", "");
        fixture.route("application = other => zone = us", "priority=5");
        assertThat(callers(DemoService::sayBye)).as("the other application's rule does not apply")
                .containsExactly("10.0.0.1:1", "10.0.0.3:3");

        fixture.route("application = shop & host = 10.20.30.* => zone = us", "priority=5");
        assertThat(callers(DemoService::sayBye)).containsExactly("10.0.0.3:3");
    }

    @Test
    void priority_higherAppliesFirst_eachNarrowsWhatThePreviousLeft() {
        fixture.route("=> env = prod", "priority=1");
        fixture.route("=> zone = eu-west", "priority=9");

        // the higher rule leaves 10.0.0.2 (env=test); the lower one would leave none, so it is skipped
        assertThat(callers(DemoService::sayHello)).containsExactly("10.0.0.2:2");
    }

    @Test
    void ruleLeavingNoProvider_withoutForce_isSkipped() {
        fixture.route("method = sayHello => zone = asia", "");

        assertThat(callers(DemoService::sayHello)).containsExactly("10.0.0.1:1", "10.0.0.2:2", "10.0.0.3:3");
    }

    @Test
    void ruleLeavingNoProvider_withForce_failsTheCall_namingTheRule() {
        URL rule = fixture.route("method = sayHello => zone = asia", "force=true");

        assertThatThrownBy(() -> service.sayHello("x")).isInstanceOf(RpcException.class)
                .hasMessageContaining("No provider available for method sayHello")
                .hasMessageContaining("condition rule " + ConditionRule.id(rule) + " 'method = sayHello => zone = asia'"
                        + " (force=true) leaves no provider");
        assertThat(callers(DemoService::sayBye)).as("other methods").hasSize(3);

        fixture.registry.unregister(rule);
        assertThat(callers(DemoService::sayHello)).as("deleting the rule restores the calls").hasSize(3);
    }

    @Test
    void emptyThen_selectsNoProvider_soItDeniesOnlyWithForce() {
        fixture.route("method = sayBye =>", "force=true");

        assertThatThrownBy(() -> service.sayBye("x")).isInstanceOf(RpcException.class)
                .hasMessageContaining("'method = sayBye =>' (force=true) leaves no provider");
        assertThat(callers(DemoService::sayHello)).hasSize(3);
    }

    @Test
    void disabledRule_doesNothing() {
        fixture.route("=> zone = us", "enabled=false");

        assertThat(callers(DemoService::sayHello)).hasSize(3);
    }

    @Test
    void malformedRule_isRefusedAndCountedOnce_theRulesAcceptedLastKeepServing() {
        fixture.route("=> zone = us", "");
        assertThat(callers(DemoService::sayHello)).containsExactly("10.0.0.3:3");
        long before = directory.getProblemCount();

        fixture.route("method = sayHello => zone = eu => env = prod", "");
        fixture.route("=> zone = eu", "forse=true");
        fixture.provider("10.0.0.4:4", "zone=us");

        assertThat(callers(DemoService::sayHello)).containsExactly("10.0.0.3:3", "10.0.0.4:4");
        assertThat(directory.getProblemCount()).as("two refusals, each once, across three refreshes").isEqualTo(before + 2);
    }

    @Test
    void conditionRuleOf_namesWhatIsWrong() {
        assertThatThrownBy(() -> ConditionRule.of(URL.valueOf("condition://0.0.0.0/S?forse=true&rule=x%3D%3Ey")))
                .hasMessageContaining("routing rule key: forse (expected: one of").hasMessageContaining("did you mean 'force'?");
        assertThatThrownBy(() -> ConditionRule.of(URL.valueOf("condition://0.0.0.0/S?rule=zone%3Deu")))
                .hasMessageContaining("expected: one '=>' between when and then");
        assertThatThrownBy(() -> ConditionRule.of(URL.valueOf("condition://0.0.0.0/S?rule=%3D%3E+method%3Dx")))
                .hasMessageContaining("'method' belongs in when");
        assertThatThrownBy(() -> ConditionRule.of(URL.valueOf("condition://0.0.0.0/S?rule=%3D%3E+zone%3D")))
                .hasMessageContaining("routing rule then values: ''");
        assertThatThrownBy(() -> ConditionRule.of(URL.valueOf("condition://0.0.0.0/S?priority=high&rule=%3D%3Ea%3Db")))
                .hasMessageContaining("priority: high");
        assertThatThrownBy(() -> ConditionRule.of(URL.valueOf("route://0.0.0.0/S?rule=%3D%3Ea%3Db")))
                .hasMessageContaining("routing rule protocol: route (expected: condition)");
    }

    @Test
    void tags_taggedCallsGoToTheirTag_fallBackToUntagged_unlessForced_untaggedCallsNeverReachTagged() {
        fixture.override("10.0.0.1:1", "tag=gray");
        CallContext context = CallContext.of(fixture.director);

        assertThat(callers(DemoService::sayHello)).as("untagged call").containsExactly("10.0.0.2:2", "10.0.0.3:3");
        try (CallContext.Scope scope = context.with("tag", "gray")) {
            assertThat(callers(DemoService::sayHello)).containsExactly("10.0.0.1:1");
        }
        try (CallContext.Scope scope = context.with("tag", "blue")) {
            assertThat(callers(DemoService::sayHello)).as("no provider tagged blue: untagged")
                    .containsExactly("10.0.0.2:2", "10.0.0.3:3");
        }
        try (CallContext.Scope scope = context.with(Map.of("tag", "blue", "tag.force", "true"))) {
            assertThatThrownBy(() -> service.sayHello("x")).isInstanceOf(RpcException.class)
                    .hasMessageContaining("no provider has tag blue and the call says tag.force=true");
        }
    }

    @Test
    void tagFromTheProviderUrl_andConditionRulesTogether_andAConsumerNeverInheritsATag() {
        fixture.provider("10.0.0.5:5", "zone=eu&tag=canary");
        fixture.route("method = sayHello => zone = eu", "");
        CallContext context = CallContext.of(fixture.director);

        assertThat(callers(DemoService::sayHello)).containsExactly("10.0.0.1:1");
        try (CallContext.Scope scope = context.with("tag", "canary")) {
            assertThat(callers(DemoService::sayHello)).containsExactly("10.0.0.5:5");
        }

        RegistryDirectory<DemoService> tagged = fixture.directory(Fixture.CONSUMER + "&tag=canary");
        assertThat(tagged.getUrl().getParameter("tag")).isEqualTo("canary");
        assertThat(Fixture.providerValues(tagged, "tag")).as("the consumer's tag is not put on providers")
                .containsEntry("10.0.0.1:1", "null").containsEntry("10.0.0.5:5", "canary");
        tagged.destroy();
    }

    private Set<String> callers(java.util.function.BiFunction<DemoService, String, String> method) {
        Set<String> answers = new TreeSet<>();
        for (int i = 0; i < 60; i++) {
            answers.add(method.apply(service, "x"));
        }
        return answers;
    }

}
