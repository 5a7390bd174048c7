package dev.weft.rpc.mock;

import dev.weft.rpc.cluster.DynamicDirectory;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.BrokenUserServiceMock;
import dev.weft.rpc.mock.fixtures.Color;
import dev.weft.rpc.mock.fixtures.Echo;
import dev.weft.rpc.mock.fixtures.MissingDataException;
import dev.weft.rpc.mock.fixtures.Point;
import dev.weft.rpc.mock.fixtures.User;
import dev.weft.rpc.mock.fixtures.UserNotFoundException;
import dev.weft.rpc.mock.fixtures.UserService;
import dev.weft.rpc.mock.fixtures.UserServiceMock;
import dev.weft.rpc.proxy.JavassistProxyFactory;
import dev.weft.rpc.proxy.JdkProxyFactory;
import dev.weft.rpc.proxy.ProxyFactory;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.reflect.Method;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MockClusterInvokerTest {

    static final URL CONSUMER = URL.valueOf("consumer://10.0.0.1/" + UserService.class.getName() + "?cluster=first");
    static final String PROVIDER = "dubbo://10.0.0.2:20880/" + UserService.class.getName();

    private final FirstInvokerCluster cluster = new FirstInvokerCluster();
    private final MockClusterWrapper wrapper = new MockClusterWrapper(cluster, new JavassistProxyFactory());
    private final FakeProvider<UserService> provider = FakeProvider.at(UserService.class, URL.valueOf(PROVIDER))
            .answering("provider");

    private DynamicDirectory<UserService> directory(URL url) {
        DynamicDirectory<UserService> directory = new DynamicDirectory<>(UserService.class, url);
        directory.setInvokers(List.of(provider));
        return directory;
    }

    private MockClusterInvoker<UserService> join(DynamicDirectory<UserService> directory) {
        return (MockClusterInvoker<UserService>) wrapper.join(directory);
    }

    static Invocation call(String method, Object... args) {
        return MockInvokerTest.call(method, args);
    }

    // ---------------------------------------------------------------- every form x mode x encoding

    enum Encoding {
        /** The expression as the URL parameter value. */
        PLAIN,
        /** Percent-encoded inside the URL text, decoded once by URL.valueOf. */
        IN_URL_TEXT,
        /** Still percent-encoded in the parameter value (encoded twice). */
        ENCODED_VALUE
    }

    record Form(String method, Object[] args, String expression, Consumer<Result> check) {
        @Override
        public String toString() {
            return method + ": " + expression;
        }
    }

    private static Form form(String method, String expression, Consumer<Result> check, Object... args) {
        return new Form(method, args, expression, check);
    }

    private static Consumer<Result> value(Object expected) {
        return r -> {
            assertThat(r.hasException()).as("exception %s", r.getException()).isFalse();
            assertThat(r.getValue()).isEqualTo(expected);
        };
    }

    static List<Form> methodLevelForms() {
        String unf = UserNotFoundException.class.getName();
        return List.of(
                form("sayHello", "return 'hi'", value("hi"), "a"),
                form("sayHello", "return \"hi there\"", value("hi there"), "a"),
                form("sayHello", "return `it's`", value("it's"), "a"),
                form("sayHello", "return bare", value("bare"), "a"),
                form("sayHello", "return", value(null), "a"),
                form("sayHello", "return null", value(null), "a"),
                form("count", "return 42", value(42)),
                form("count", "return empty", value(0)),
                form("users", "return [{\"name\":\"a\",\"age\":1}]", value(List.of(new User("a", 1)))),
                form("users", "return empty", value(List.of())),
                form("scores", "return {\"a\": 1}", value(Map.of("a", 1))),
                form("favourite", "return RED", value(Color.RED)),
                form("origin", "return {\"x\": 1, \"y\": 2}", value(new Point(1, 2))),
                form("numbers", "return [1, 2]", r -> assertThat((int[]) r.getValue()).containsExactly(1, 2)),
                form("findAsync", "return {\"name\": \"f\"}", value(new User("f", 0)), 9L),
                form("nickname", "return 'n'", value(Optional.of("n"))),
                form("find", "throw", r -> assertThat(r.getException()).isExactlyInstanceOf(RpcException.class)
                        .hasMessage("mocked exception for service degradation: " + UserService.class.getName() + ".find(long)"), 1L),
                form("find", "throw " + unf, r -> assertThat(r.getException()).isExactlyInstanceOf(UserNotFoundException.class), 1L),
                form("sayHello", "default", value("mock hello a"), "a"),
                form("sayHello", "true", value("mock hello a"), "a"),
                form("count", UserServiceMock.class.getName(), value(-1)));
    }

    static Stream<Arguments> methodLevelCases() {
        List<Arguments> cases = new ArrayList<>();
        for (Form f : methodLevelForms()) {
            for (String prefix : new String[] {"force:", "fail:", ""}) {
                for (Encoding encoding : Encoding.values()) {
                    cases.add(Arguments.of(f, prefix, encoding));
                }
            }
        }
        return cases.stream();
    }

    static URL withMock(URL base, String key, String expression, Encoding encoding) {
        String encoded = URLEncoder.encode(expression, StandardCharsets.UTF_8);
        return switch (encoding) {
            case PLAIN -> base.addParameter(key, expression);
            case IN_URL_TEXT -> URL.valueOf(base.toFullString() + "&" + key + "=" + encoded);
            case ENCODED_VALUE -> base.addParameter(key, encoded);
        };
    }

    @ParameterizedTest(name = "{1}{0} {2}")
    @MethodSource("methodLevelCases")
    void methodLevel_everyFormModeAndEncoding(Form form, String prefix, Encoding encoding) {
        provider.failingWith(Reply.networkError());
        URL url = withMock(CONSUMER, form.method() + ".mock", prefix + form.expression(), encoding);
        MockClusterInvoker<UserService> invoker = join(directory(url));

        Result result = invoker.invoke(call(form.method(), form.args()));

        form.check().accept(result);
        assertThat(provider.calls()).isEqualTo(prefix.equals("force:") ? 0 : 1);
        assertThat(invoker.getMockAnswers()).isEqualTo(1);
        assertThat(invoker.getFailuresMasked()).isEqualTo(prefix.equals("force:") ? 0 : 1);
        // other methods are not mocked and reach the (failing) provider
        String other = form.method().equals("ping") ? "count" : "ping";
        assertThatThrownBy(() -> invoker.invoke(call(other))).isInstanceOf(RpcException.class)
                .hasMessage("scripted network failure at fake provider 10.0.0.2 (method " + other + ")");
    }

    static Stream<Arguments> interfaceLevelCases() {
        String unf = UserNotFoundException.class.getName();
        List<Arguments> cases = new ArrayList<>();
        List<Object[]> forms = List.of(
                new Object[] {UserService.class, "return empty", "users", value(List.of())},
                new Object[] {UserService.class, "return empty", "count", value(0)},
                new Object[] {UserService.class, "throw", "count", (Consumer<Result>) r ->
                        assertThat(((RpcException) r.getException()).isBiz()).isTrue()},
                new Object[] {UserService.class, "throw " + unf, "users", (Consumer<Result>) r ->
                        assertThat(r.getException()).isExactlyInstanceOf(UserNotFoundException.class)},
                new Object[] {UserService.class, "default", "count", value(-1)},
                new Object[] {UserService.class, UserServiceMock.class.getName(), "favourite", value(Color.BLUE)},
                new Object[] {Echo.class, "return 'hi'", "name", value("hi")},
                new Object[] {Echo.class, "return \"hi there\"", "name", value("hi there")},
                new Object[] {Echo.class, "return plain", "name", value("plain")},
                new Object[] {Echo.class, "return", "name", value(null)},
                new Object[] {Echo.class, "return empty", "name", value("")});
        for (Object[] f : forms) {
            for (String prefix : new String[] {"force:", "fail:", ""}) {
                for (Encoding encoding : Encoding.values()) {
                    cases.add(Arguments.of(f[0], f[1], f[2], f[3], prefix, encoding));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {4}{1} on {2} {5}")
    @MethodSource("interfaceLevelCases")
    <T> void interfaceLevel_everyFormModeAndEncoding(Class<T> type, String expression, String method,
                                                      Consumer<Result> check, String prefix, Encoding encoding) throws Exception {
        FakeProvider<T> failing = FakeProvider.of(type, "b").failingWith(Reply.networkError());
        URL url = withMock(URL.valueOf("consumer://10.0.0.1/" + type.getName() + "?x=1"), "mock", prefix + expression, encoding);
        DynamicDirectory<T> directory = new DynamicDirectory<>(type, url);
        directory.setInvokers(List.of(failing));
        Invoker<T> invoker = wrapper.join(directory);

        Method m = type.getMethod(method);
        check.accept(invoker.invoke(new RpcInvocation(m, null)));
        assertThat(failing.calls()).isEqualTo(prefix.equals("force:") ? 0 : 1);
    }

    // ---------------------------------------------------------------- pass-through and fail-mode rules

    @Test
    void noMock_passesTheClusterResultThrough() {
        Result fromProvider = RpcResult.of("provider");
        provider.answering((invocation, fake) -> fromProvider);
        for (URL url : new URL[] {CONSUMER, CONSUMER.addParameter("mock", ""), CONSUMER.addParameter("mock", "false")}) {
            MockClusterInvoker<UserService> invoker = join(directory(url));
            assertThat(invoker.invoke(call("sayHello", "a"))).isSameAs(fromProvider);
            assertThat(invoker.getMockInvoker().isEmpty()).isTrue();
        }
    }

    @Test
    void failMode_success_returnsTheProviderResult() {
        MockClusterInvoker<UserService> invoker = join(directory(CONSUMER.addParameter("sayHello.mock", "return 'mock'")));
        assertThat(invoker.invoke(call("sayHello", "a")).getValue()).isEqualTo("provider");
        assertThat(invoker.getMockAnswers()).isZero();
    }

    @Test
    void failMode_businessExceptions_passThroughUntouched() {
        MockClusterInvoker<UserService> invoker = join(directory(CONSUMER.addParameter("mock", "fail:return empty")));
        RpcException biz = new RpcException(RpcException.BIZ_EXCEPTION, "bad argument");
        provider.failingWith(biz);
        assertThatThrownBy(() -> invoker.invoke(call("users"))).isSameAs(biz);

        UserNotFoundException own = new UserNotFoundException("no such user");
        provider.failingWith(own);
        assertThat(invoker.invoke(call("users")).getException()).isSameAs(own);

        RpcException bizInResult = new RpcException(RpcException.BIZ_EXCEPTION, "biz");
        provider.answering(Reply.serviceException(bizInResult));
        assertThat(invoker.invoke(call("users")).getException()).isSameAs(bizInResult);
        assertThat(invoker.getMockAnswers()).isZero();
    }

    @Test
    void failMode_nonBusinessRpcExceptionInTheResult_isAnsweredByTheMock() {
        MockClusterInvoker<UserService> invoker = join(directory(CONSUMER.addParameter("mock", "fail:return empty")));
        provider.answering(Reply.serviceException(new RpcException(RpcException.TIMEOUT_EXCEPTION, "timeout")));
        assertThat(invoker.invoke(call("users")).getValue()).isEqualTo(List.of());
    }

    @Test
    void failMode_throwClass_carriesTheOriginalFailureAsSuppressed() {
        MockClusterInvoker<UserService> invoker = join(directory(
                CONSUMER.addParameter("find.mock", "throw " + UserNotFoundException.class.getName())));
        RpcException network = new RpcException(RpcException.NETWORK_EXCEPTION, "connection refused by 10.0.0.2:20880");
        provider.failingWith(network);
        Throwable thrown = invoker.invoke(call("find", 1L)).getException();
        assertThat(thrown).isExactlyInstanceOf(UserNotFoundException.class);
        assertThat(thrown.getSuppressed()).containsExactly(network);
    }

    @Test
    void failMode_whenTheMockFails_theErrorCarriesBoth() {
        MockClusterInvoker<UserService> invoker = join(directory(
                CONSUMER.addParameter("mock", "fail:" + BrokenUserServiceMock.class.getName())));
        RpcException timeout = new RpcException(RpcException.TIMEOUT_EXCEPTION, "waited 1000 ms for 10.0.0.2:20880");
        provider.failingWith(timeout);
        assertThatThrownBy(() -> invoker.invoke(call("count")))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.isTimeout()).isTrue();
                    assertThat(e.getCause()).isSameAs(timeout);
                    assertThat(e.getSuppressed()).hasSize(1);
                    assertThat(e.getSuppressed()[0]).hasMessageContaining("broken mock constructor");
                })
                .hasMessage("Mock mock=fail:dev.weft.rpc.mock.fixtures.BrokenUserServiceMock could not answer"
                        + " dev.weft.rpc.mock.fixtures.UserService.count() after the call failed with: waited 1000 ms for"
                        + " 10.0.0.2:20880; the mock failed with: java.lang.IllegalStateException: mock class"
                        + " dev.weft.rpc.mock.fixtures.BrokenUserServiceMock could not be created:"
                        + " java.lang.IllegalStateException: broken mock constructor");
    }

    @Test
    void forceMode_whenTheMockFails_theMockErrorIsTheCause() {
        MockClusterInvoker<UserService> invoker = join(directory(
                CONSUMER.addParameter("mock", "force:" + BrokenUserServiceMock.class.getName())));
        assertThatThrownBy(() -> invoker.invoke(call("count")))
                .isInstanceOf(RpcException.class)
                .hasRootCauseMessage("broken mock constructor");
        assertThat(provider.calls()).isZero();
    }

    // ---------------------------------------------------------------- mock-protocol invokers

    @Test
    void mockProtocolInvoker_answersMockCalls_inPreferenceToTheExpression_andNeverNormalCalls() {
        FakeProvider<UserService> mockInvoker = FakeProvider.at(UserService.class,
                URL.valueOf("mock://10.0.0.1/" + UserService.class.getName()))
                .answering(Reply.computed(inv -> "from mock invoker " + inv.getAttachment("invocation.need.mock")));
        DynamicDirectory<UserService> directory = directory(CONSUMER);
        directory.setInvokers(List.of(provider, mockInvoker));
        MockClusterInvoker<UserService> invoker = join(directory);

        assertThat(invoker.invoke(call("sayHello", "a")).getValue()).isEqualTo("provider");
        assertThat(mockInvoker.calls()).isZero();

        directory.setUrl(CONSUMER.addParameter("sayHello.mock", "force:return 'from expression'"));
        assertThat(invoker.invoke(call("sayHello", "a")).getValue()).isEqualTo("from mock invoker true");

        directory.setUrl(CONSUMER.addParameter("sayHello.mock", "fail:return 'from expression'"));
        provider.failingWith(Reply.networkError());
        assertThat(invoker.invoke(call("sayHello", "a")).getValue()).isEqualTo("from mock invoker true");
        assertThat(mockInvoker.calls()).isEqualTo(2);

        directory.setInvokers(List.of(provider));
        assertThat(invoker.invoke(call("sayHello", "a")).getValue()).isEqualTo("from expression");
    }

    @Test
    void mockProtocolInvoker_failing_errorCarriesBoth() {
        RpcException mockDown = new RpcException(RpcException.NETWORK_EXCEPTION, "mock server down");
        FakeProvider<UserService> mockInvoker = FakeProvider.at(UserService.class,
                URL.valueOf("mock://10.0.0.1/" + UserService.class.getName())).failingWith(mockDown);
        DynamicDirectory<UserService> directory = directory(CONSUMER.addParameter("mock", "return empty"));
        directory.setInvokers(List.of(provider, mockInvoker));
        RpcException network = new RpcException(RpcException.NETWORK_EXCEPTION, "connection refused by 10.0.0.2:20880");
        provider.failingWith(network);
        assertThatThrownBy(() -> join(directory).invoke(call("users")))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.getCause()).isSameAs(network);
                    assertThat(e.getSuppressed()).containsExactly(mockDown);
                });
    }

    // ---------------------------------------------------------------- live switching and validation

    @Test
    void liveSwitching_throughSetUrl_degradesAndRestoresAtOnce() throws Exception {
        FakeProvider<Echo> echoProvider = FakeProvider.of(Echo.class, "b").answering("provider");
        URL consumer = URL.valueOf("consumer://10.0.0.1/" + Echo.class.getName());
        DynamicDirectory<Echo> directory = new DynamicDirectory<>(Echo.class, consumer);
        directory.setInvokers(List.of(echoProvider));
        Invoker<Echo> invoker = wrapper.join(directory);
        Invocation name = new RpcInvocation(Echo.class.getMethod("name"), null);
        assertThat(invoker.invoke(name).getValue()).isEqualTo("provider");

        directory.setUrl(directory.getUrl().addParameter("mock", "force:return null"));
        assertThat(invoker.invoke(name).getValue()).isNull();
        assertThat(echoProvider.calls()).isEqualTo(1);

        directory.setUrl(directory.getUrl().removeParameter("mock"));
        assertThat(invoker.invoke(name).getValue()).isEqualTo("provider");
        assertThat(echoProvider.calls()).isEqualTo(2);
        assertThat(invoker.getUrl()).isSameAs(directory.getUrl());
    }

    @Test
    void liveSwitching_interfaceLevelNull_isRejectedWhereMethodsReturnPrimitives() {
        DynamicDirectory<UserService> directory = directory(CONSUMER);
        MockClusterInvoker<UserService> invoker = join(directory);
        assertThatThrownBy(() -> directory.setUrl(directory.getUrl().addParameter("mock", "force:return null")))
                .isInstanceOf(MockConfigurationException.class);
        assertThat(invoker.invoke(call("sayHello", "a")).getValue()).isEqualTo("provider");
        assertThat(invoker.getRejectedUpdates()).isEqualTo(1);
        directory.setUrl(directory.getUrl().addParameter("mock", "force:return null").addParameter("count.mock", "force:return 0")
                .addParameter("total.mock", "force:return -1"));
        assertThat(invoker.invoke(call("sayHello", "a")).getValue()).isNull();
        assertThat(invoker.invoke(call("total", 1, 2)).getValue()).isEqualTo(-1L);
        assertThat(invoker.getRejectedUpdates()).isEqualTo(1);
    }

    @Test
    void validation_atJoin_failsBeforeTheClusterJoins() {
        DynamicDirectory<UserService> directory = directory(CONSUMER.addParameter("count.mock", "force:return 'many'"));
        assertThatThrownBy(() -> wrapper.join(directory))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessage("count.mock: force:return 'many' (expected: a value of type int for count(); at column 14:"
                        + " Cannot deserialize value of type `int` from String \"many\": not a valid `int` value)");
        assertThat(cluster.joins.get()).isZero();
    }

    @Test
    void validation_onUrlUpdate_rejectsTheUpdate_keepsTheOldConfig_andCountsIt() {
        DynamicDirectory<UserService> directory = directory(CONSUMER.addParameter("sayHello.mock", "force:return 'old'"));
        MockClusterInvoker<UserService> invoker = join(directory);

        URL bad = CONSUMER.addParameter("sayHello.mock", "force:return 'new'").addParameter("count.mock", "return x");
        assertThatThrownBy(() -> directory.setUrl(bad))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessageStartingWith("count.mock: return x");
        assertThat(directory.getUrl()).as("the vetoed URL is not published").isNotEqualTo(bad);
        assertThat(invoker.invoke(call("sayHello", "a")).getValue()).isEqualTo("old");
        assertThat(invoker.getRejectedUpdates()).isEqualTo(1);

        directory.setUrl(directory.getUrl().addParameter("unrelated", "1"));
        invoker.invoke(call("sayHello", "a"));
        assertThat(invoker.getRejectedUpdates()).isEqualTo(1);

        directory.setUrl(CONSUMER.addParameter("sayHello.mock", "force:return 'new'"));
        assertThat(invoker.invoke(call("sayHello", "a")).getValue()).isEqualTo("new");
        assertThat(invoker.getRejectedUpdates()).isEqualTo(1);
        assertThat(provider.calls()).isZero();
    }

    // ---------------------------------------------------------------- through real proxies

    static Stream<ProxyFactory> proxyFactories() {
        return Stream.of(new JavassistProxyFactory(), new JdkProxyFactory());
    }

    @ParameterizedTest
    @MethodSource("proxyFactories")
    void throwThroughARealProxy_deliversTheExactExceptionType(ProxyFactory proxies) {
        URL url = CONSUMER.addParameter("find.mock", "force:throw " + UserNotFoundException.class.getName())
                .addParameter("load.mock", "force:throw " + MissingDataException.class.getName())
                .addParameter("count.mock", "force:throw");
        UserService service = proxies.getProxy(new MockClusterWrapper(cluster, proxies).join(directory(url)));

        assertThatThrownBy(() -> service.find(7)).isExactlyInstanceOf(UserNotFoundException.class)
                .hasMessage("mocked exception for service degradation: dev.weft.rpc.mock.fixtures.UserService.find(long)");
        assertThatThrownBy(() -> service.load("k")).isExactlyInstanceOf(MissingDataException.class);
        assertThatThrownBy(service::count).isExactlyInstanceOf(RpcException.class)
                .hasMessage("mocked exception for service degradation: dev.weft.rpc.mock.fixtures.UserService.count()");
        assertThat(service.sayHello("x")).isEqualTo("provider");
    }

    @ParameterizedTest
    @MethodSource("proxyFactories")
    void mockClassThroughARealProxy(ProxyFactory proxies) throws Exception {
        URL url = CONSUMER.addParameter("mock", "force");
        UserService service = proxies.getProxy(new MockClusterWrapper(cluster, proxies).join(directory(url)));
        assertThat(service.sayHello("ann")).isEqualTo("mock hello ann");
        assertThat(service.users()).containsExactly(new User("mock", 0));
        assertThat(service.findAsync(4).get()).isEqualTo(new User("async mock", 4));
        assertThatThrownBy(() -> service.find(3)).isExactlyInstanceOf(UserNotFoundException.class);
    }
}
