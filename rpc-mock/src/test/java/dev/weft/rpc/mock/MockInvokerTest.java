package dev.weft.rpc.mock;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.CheckedWithInit;
import dev.weft.rpc.mock.fixtures.Color;
import dev.weft.rpc.mock.fixtures.HiddenCtorMockWithInit;
import dev.weft.rpc.mock.fixtures.InitRecorder;
import dev.weft.rpc.mock.fixtures.MissingDataException;
import dev.weft.rpc.mock.fixtures.NotAServiceWithInit;
import dev.weft.rpc.mock.fixtures.Outer;
import dev.weft.rpc.mock.fixtures.Point;
import dev.weft.rpc.mock.fixtures.QuietException;
import dev.weft.rpc.mock.fixtures.RiskyService;
import dev.weft.rpc.mock.fixtures.User;
import dev.weft.rpc.mock.fixtures.UserNotFoundException;
import dev.weft.rpc.mock.fixtures.UserService;
import dev.weft.rpc.mock.fixtures.UserServiceMock;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.LIST;

class MockInvokerTest {

    static final URL BASE = URL.valueOf("consumer://10.0.0.1/" + UserService.class.getName());

    private final ReflectiveInvokers invokers = new ReflectiveInvokers();
    private final MockSupport support = new MockSupport(invokers);

    private MockInvoker<UserService> mock(String... keyValues) {
        URL url = BASE;
        for (int i = 0; i < keyValues.length; i += 2) {
            url = url.addParameter(keyValues[i], keyValues[i + 1]);
        }
        return MockInvoker.create(UserService.class, url, support);
    }

    private MockConfigurationException rejected(String... keyValues) {
        try {
            mock(keyValues);
        } catch (MockConfigurationException e) {
            return e;
        }
        throw new AssertionError("expected a MockConfigurationException");
    }

    static Invocation call(String method, Object... args) {
        for (Method m : UserService.class.getMethods()) {
            if (m.getName().equals(method) && m.getParameterCount() == args.length) {
                return new RpcInvocation(m, args);
            }
        }
        throw new IllegalArgumentException(method);
    }

    private static Object value(MockInvoker<UserService> mock, String method, Object... args) throws Throwable {
        return mock.invoke(call(method, args)).recreate();
    }

    // ---------------------------------------------------------------- return values

    @Test
    void return_convertsToEachGenericReturnType() throws Throwable {
        assertThat(value(mock("sayHello.mock", "return \"hi there\""), "sayHello", "ann")).isEqualTo("hi there");
        assertThat(value(mock("sayHello.mock", "return 'single quoted'"), "sayHello", "ann")).isEqualTo("single quoted");
        assertThat(value(mock("sayHello.mock", "return `back ticks`"), "sayHello", "ann")).isEqualTo("back ticks");
        assertThat(value(mock("sayHello.mock", "return bare"), "sayHello", "ann")).isEqualTo("bare");
        assertThat(value(mock("count.mock", "return 42"), "count")).isEqualTo(42);
        assertThat(value(mock("users.mock", "return [{\"name\":\"ann\",\"age\":3},{\"name\":\"bob\"}]"), "users"))
                .asInstanceOf(LIST).containsExactly(new User("ann", 3), new User("bob", 0));
        assertThat(value(mock("scores.mock", "return {\"ann\": 1, \"bob\": 2}"), "scores"))
                .isEqualTo(Map.of("ann", 1, "bob", 2));
        assertThat(value(mock("find.mock", "return {\"name\":\"ann\",\"age\":7}"), "find", 1L)).isEqualTo(new User("ann", 7));
        assertThat(value(mock("origin.mock", "return {\"x\": 1, \"y\": -2}"), "origin")).isEqualTo(new Point(1, -2));
        assertThat(value(mock("favourite.mock", "return GREEN"), "favourite")).isEqualTo(Color.GREEN);
        assertThat(value(mock("favourite.mock", "return \"BLUE\""), "favourite")).isEqualTo(Color.BLUE);
        assertThat((int[]) value(mock("numbers.mock", "return [1, 2, 3]"), "numbers")).containsExactly(1, 2, 3);
        assertThat((String[]) value(mock("names.mock", "return [\"a\", \"b\"]"), "names")).containsExactly("a", "b");
        assertThat(value(mock("nickname.mock", "return 'nick'"), "nickname")).isEqualTo(Optional.of("nick"));
        assertThat(value(mock("nickname.mock", "return null"), "nickname")).isEqualTo(Optional.empty());
        assertThat(value(mock("total.mock", "return 9"), "total", 1)).isEqualTo(9L);
        assertThat(value(mock("total.mock", "return 9"), "total", 1, 2)).isEqualTo(9L);
    }

    @Test
    void return_completableFuture_answersTheElementType_whichTheProxyCompletesTheFutureWith() throws Throwable {
        Object value = value(mock("findAsync.mock", "return {\"name\":\"later\",\"age\":1}"), "findAsync", 5L);
        assertThat(value).isEqualTo(new User("later", 1));
    }

    @Test
    void return_mutableValues_areFreshPerCall() throws Throwable {
        MockInvoker<UserService> m = mock("users.mock", "return [{\"name\":\"ann\"}]");
        @SuppressWarnings("unchecked")
        List<User> first = (List<User>) value(m, "users");
        first.clear();
        assertThat(value(m, "users")).asInstanceOf(LIST).containsExactly(new User("ann", 0));
    }

    @Test
    void returnAloneAndNull_giveNull() throws Throwable {
        assertThat(value(mock("sayHello.mock", "return"), "sayHello", "x")).isNull();
        assertThat(value(mock("find.mock", "force:return null"), "find", 1L)).isNull();
    }

    @Test
    void returnEmpty_givesTheEmptyValueOfEachType() throws Throwable {
        MockInvoker<UserService> m = mock("mock", "return empty");
        assertThat(value(m, "sayHello", "x")).isEqualTo("");
        assertThat(value(m, "count")).isEqualTo(0);
        assertThat(value(m, "users")).isEqualTo(new ArrayList<>());
        assertThat(value(m, "scores")).isEqualTo(new LinkedHashMap<>());
        assertThat(value(m, "find", 1L)).isEqualTo(new User());
        assertThat(value(m, "origin")).isEqualTo(new Point(0, 0));
        assertThat(value(m, "favourite")).isNull();
        assertThat((int[]) value(m, "numbers")).isEmpty();
        assertThat((String[]) value(m, "names")).isEmpty();
        assertThat(value(m, "nickname")).isEqualTo(Optional.empty());
        assertThat(value(m, "findAsync", 1L)).isEqualTo(new User());
        assertThat(value(m, "ping")).isNull();
        assertThat(value(m, "total", 1)).isEqualTo(0L);
    }

    @Test
    void interfaceLevelReturn_voidMethodsIgnoreTheValue() throws Throwable {
        MockInvoker<UserService> m = mock("mock", "return 5", "sayHello.mock", "return five", "users.mock", "return []",
                "scores.mock", "return {}", "find.mock", "return", "origin.mock", "return", "favourite.mock", "return RED",
                "numbers.mock", "return [5]", "names.mock", "return []", "nickname.mock", "return", "findAsync.mock",
                "return", "load.mock", "return '5'");
        assertThat(value(m, "ping")).isNull();
        assertThat(value(m, "count")).isEqualTo(5);
        assertThat(value(m, "total", 1)).isEqualTo(5L);
    }

    @Test
    void methodLevel_overridesInterfaceLevel_andFalseTurnsItOff() {
        MockInvoker<UserService> m = mock("mock", "force:return empty", "sayHello.mock", "fail:return 'x'", "count.mock", "false");
        assertThat(m.modeFor(call("users"))).contains(MockMode.FORCE);
        assertThat(m.modeFor(call("sayHello", "a"))).contains(MockMode.FAIL);
        assertThat(m.modeFor(call("count"))).isEmpty();
        assertThat(m.isEmpty()).isFalse();
        assertThat(mock().isEmpty()).isTrue();
        assertThat(mock("mock", "false").isEmpty()).isTrue();
    }

    @Test
    void urlEncodedValues_work() throws Throwable {
        URL plain = URL.valueOf(BASE.toFullString() + "?sayHello.mock=force%3Areturn%20%22hi%20there%22");
        assertThat(MockInvoker.create(UserService.class, plain, support).invoke(call("sayHello", "a")).recreate())
                .isEqualTo("hi there");
        URL twice = BASE.addParameter("sayHello.mock", "force%3Areturn+%22hi+there%22");
        assertThat(MockInvoker.create(UserService.class, twice, support).invoke(call("sayHello", "a")).recreate())
                .isEqualTo("hi there");
    }

    // ---------------------------------------------------------------- validation of values

    @Test
    void interfaceLevelValue_thatDoesNotFit_namesEveryMethodAndItsKey() {
        MockConfigurationException e = rejected("mock", "return hello");
        assertThat(e.getKey()).isEqualTo("mock");
        assertThat(e.getMessage()).startsWith(
                "mock: return hello (expected: a mock that every method of dev.weft.rpc.mock.fixtures.UserService can take;"
                        + " at column 8: ");
        assertThat(e.getMessage()).contains(
                "  - count(): a value of type int; Cannot deserialize value of type `int` from String \"hello\":"
                        + " not a valid `int` value (set count.mock to give count its own mock)");
        assertThat(e.getMessage()).contains("  - users(): a value of type java.util.List<dev.weft.rpc.mock.fixtures.User>;");
        assertThat(e.getMessage()).contains("(set favourite.mock to give favourite its own mock)");
        assertThat(e.getMessage()).doesNotContain("sayHello").doesNotContain("ping").doesNotContain("load()");
    }

    @Test
    void interfaceLevelNull_isRejectedForPrimitiveMethods_withTheExactMessage() {
        assertThat(rejected("mock", "force:return null").getMessage()).isEqualTo(
                "mock: force:return null (expected: a mock that every method of dev.weft.rpc.mock.fixtures.UserService can take;"
                        + " at column 14: 3 methods cannot)\n"
                        + "  - count(): a value of type int; null cannot become the primitive int (set count.mock to give count its own mock)\n"
                        + "  - total(int): a value of type long; null cannot become the primitive long (set total.mock to give total its own mock)\n"
                        + "  - total(int, int): a value of type long; null cannot become the primitive long (set total.mock to give total its own mock)");
    }

    @Test
    void throwClass_checkedOnAMethodThatDoesNotDeclareIt_isRejected() {
        assertThat(rejected("find.mock", "throw java.io.IOException").getMessage()).isEqualTo(
                "find.mock: throw java.io.IOException (expected: an unchecked exception or one declared by the method for find(long);"
                        + " at column 7: java.io.IOException is checked and find declares none)");
    }

    @Test
    void interfaceLevelValue_rejectedOnlyWhereItDoesNotFit_fixedByMethodKeys() throws Throwable {
        MockConfigurationException e = rejected("mock", "return 12", "count.mock", "return 1");
        assertThat(e.getMessage()).doesNotContain("count()").contains("find(long)").contains("favourite()");
    }

    @Test
    void methodLevelValue_thatDoesNotFit_namesKeyTypeAndColumn() {
        assertThat(rejected("count.mock", "force:return 'many'").getMessage()).isEqualTo(
                "count.mock: force:return 'many' (expected: a value of type int for count(); at column 14:"
                        + " Cannot deserialize value of type `int` from String \"many\": not a valid `int` value)");
        assertThat(rejected("favourite.mock", "return PURPLE").getMessage()).isEqualTo(
                "favourite.mock: return PURPLE (expected: a value of type dev.weft.rpc.mock.fixtures.Color for favourite();"
                        + " at column 8: Cannot deserialize value of type `dev.weft.rpc.mock.fixtures.Color` from String"
                        + " \"PURPLE\": not one of the values accepted for Enum class: [RED, BLUE, GREEN])");
        assertThat(rejected("count.mock", "return null").getMessage()).isEqualTo(
                "count.mock: return null (expected: a value of type int for count(); at column 8:"
                        + " null cannot become the primitive int)");
        assertThat(rejected("find.mock", "return {\"nmae\": \"x\"}").getMessage()).startsWith(
                "find.mock: return {\"nmae\": \"x\"} (expected: a value of type dev.weft.rpc.mock.fixtures.User for find(long);"
                        + " at column 8: Unrecognized field \"nmae\"");
    }

    @Test
    void methodKey_forUnknownMethod_isRejectedListingTheMethods() {
        assertThat(rejected("sayHelo.mock", "return 'x'").getMessage()).isEqualTo(
                "sayHelo.mock: return 'x' (expected: a key <method>.mock naming a method of dev.weft.rpc.mock.fixtures.UserService:"
                        + " [count, favourite, find, findAsync, load, names, nickname, numbers, origin, ping, sayHello, scores,"
                        + " total, users]; found no method 'sayHelo')");
    }

    @Test
    void severalProblems_areReportedTogether() {
        MockConfigurationException e = rejected("count.mock", "return x", "sayHello.mock", "retrun", "nope.mock", "true");
        assertThat(e.getMessage().split("\n")).hasSize(3);
        assertThat(e.getKey()).contains("count.mock").contains("sayHello.mock").contains("nope.mock");
    }

    // ---------------------------------------------------------------- throw

    @Test
    void throwAlone_isABusinessRpcExceptionNamingTheMethod() {
        Result r = mock("mock", "force:throw").invoke(call("sayHello", "a"));
        assertThat(r.getException()).isInstanceOf(RpcException.class)
                .hasMessage("mocked exception for service degradation: dev.weft.rpc.mock.fixtures.UserService.sayHello(java.lang.String)");
        assertThat(((RpcException) r.getException()).isBiz()).isTrue();
    }

    @Test
    void throwClass_isAFreshInstancePerCall_withStringOrNoArgConstructor() {
        MockInvoker<UserService> m = mock("find.mock", "force:throw " + UserNotFoundException.class.getName(),
                "count.mock", "throw " + QuietException.class.getName(), "load.mock", "throw " + MissingDataException.class.getName());
        Throwable first = m.invoke(call("find", 1L)).getException();
        Throwable second = m.invoke(call("find", 1L)).getException();
        assertThat(first).isExactlyInstanceOf(UserNotFoundException.class)
                .hasMessage("mocked exception for service degradation: dev.weft.rpc.mock.fixtures.UserService.find(long)");
        assertThat(second).isNotSameAs(first);
        assertThat(m.invoke(call("count")).getException()).isExactlyInstanceOf(QuietException.class);
        assertThat(m.invoke(call("load", "k")).getException()).isExactlyInstanceOf(MissingDataException.class);
    }

    @Test
    void throwClass_checkedButNotDeclared_isRejectedWithoutInitialisingIt() {
        MockConfigurationException e = rejected("count.mock", "throw " + CheckedWithInit.class.getName());
        assertThat(e.getMessage()).isEqualTo("count.mock: throw dev.weft.rpc.mock.fixtures.CheckedWithInit (expected: an"
                + " unchecked exception or one declared by the method for count(); at column 7:"
                + " dev.weft.rpc.mock.fixtures.CheckedWithInit is checked and count declares none)");
        assertThat(InitRecorder.INITIALISED).doesNotContain(CheckedWithInit.class.getName());
    }

    @Test
    void throwClass_notAThrowable_isRejectedWithoutInitialisingIt() {
        MockConfigurationException e = rejected("mock", "force:throw " + NotAServiceWithInit.class.getName());
        assertThat(e.getMessage()).isEqualTo("mock: force:throw dev.weft.rpc.mock.fixtures.NotAServiceWithInit (expected: a"
                + " public, concrete java.lang.Throwable class with a public (String) or () constructor; at column 13:"
                + " dev.weft.rpc.mock.fixtures.NotAServiceWithInit is not a java.lang.Throwable)");
        assertThat(InitRecorder.INITIALISED).doesNotContain(NotAServiceWithInit.class.getName());
    }

    @Test
    void throwClass_missingOrWithoutConstructor_isRejected() {
        assertThat(rejected("mock", "throw com.example.NoSuchException").getMessage())
                .isEqualTo("mock: throw com.example.NoSuchException (expected: a public, concrete java.lang.Throwable class"
                        + " with a public (String) or () constructor; at column 7: class com.example.NoSuchException not found by class loader 'app')");
        assertThat(rejected("mock", "throw dev.weft.rpc.mock.fixtures.CodedException").getMessage())
                .endsWith("at column 7: dev.weft.rpc.mock.fixtures.CodedException has neither a public (String) nor a public () constructor)");
    }

    // ---------------------------------------------------------------- mock classes

    @Test
    void defaultWords_resolveInterfaceMock_andCallItThroughTheInvokerPath() throws Throwable {
        String[] words = {"default", "true", "fail", "force", "force:default", "fail:true"};
        for (String word : words) {
            MockInvoker<UserService> m = mock("mock", word);
            assertThat(value(m, "sayHello", "ann")).isEqualTo("mock hello ann");
            assertThat(value(m, "favourite")).isEqualTo(Color.BLUE);
            assertThat(m.mockInstances()).isEqualTo(1); // one instance per configuration, shared by its methods
        }
        assertThat(invokers.created).hasValue(words.length);
    }

    @Test
    void mockClass_exceptionFromTheMock_isItsAnswer() {
        assertThat(mock("mock", "force").invoke(call("find", 3L)).getException())
                .isExactlyInstanceOf(UserNotFoundException.class).hasMessage("mock has no user 3");
    }

    @Test
    void mockClass_byFullyQualifiedName() throws Throwable {
        assertThat(value(mock("count.mock", "force:" + UserServiceMock.class.getName()), "count")).isEqualTo(-1);
    }

    @Test
    void nestedInterface_defaultMockUsesBinaryName() throws Throwable {
        URL url = URL.valueOf("consumer://h/greeter?mock=force");
        MockInvoker<Outer.Greeter> m = MockInvoker.create(Outer.Greeter.class, url, support);
        assertThat(m.invoke(new RpcInvocation(Outer.Greeter.class.getMethod("greet", String.class), new Object[] {"x"}))
                .recreate()).isEqualTo("nested mock x");
        assertThat(MockClassBinding.defaultName(Outer.Greeter.class)).isEqualTo("dev.weft.rpc.mock.fixtures.Outer$GreeterMock");
    }

    @Test
    void mockClass_missingDefault_namesTheClassItLookedFor() {
        URL url = URL.valueOf("consumer://h/risky?mock=force");
        assertThatThrownBy(() -> MockInvoker.create(RiskyService.class, url, support))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessage("mock: force (expected: a public, concrete class implementing"
                        + " dev.weft.rpc.mock.fixtures.RiskyService with a public no-argument constructor (the default is"
                        + " dev.weft.rpc.mock.fixtures.RiskyServiceMock); at column 1: class"
                        + " dev.weft.rpc.mock.fixtures.RiskyServiceMock not found by class loader 'app')");
    }

    @Test
    void mockClass_notImplementingTheInterface_isRejectedWithoutInitialisingIt() {
        assertThat(rejected("mock", "force:" + NotAServiceWithInit.class.getName()).getMessage()).isEqualTo(
                "mock: force:dev.weft.rpc.mock.fixtures.NotAServiceWithInit (expected: a public, concrete class implementing"
                        + " dev.weft.rpc.mock.fixtures.UserService with a public no-argument constructor; at column 7:"
                        + " dev.weft.rpc.mock.fixtures.NotAServiceWithInit does not implement dev.weft.rpc.mock.fixtures.UserService)");
        assertThat(InitRecorder.INITIALISED).doesNotContain(NotAServiceWithInit.class.getName());
    }

    @Test
    void mockClass_withoutNoArgConstructor_isRejectedWithoutInitialisingIt() {
        assertThat(rejected("mock", HiddenCtorMockWithInit.class.getName()).getMessage()).endsWith(
                "at column 1: dev.weft.rpc.mock.fixtures.HiddenCtorMockWithInit has no public no-argument constructor)");
        assertThat(InitRecorder.INITIALISED).doesNotContain(HiddenCtorMockWithInit.class.getName());
    }

    // ---------------------------------------------------------------- malicious values

    @Test
    void malicious_classValues_areRefused() {
        URL url = URL.valueOf("consumer://h/risky").addParameter("type.mock", "return " + NotAServiceWithInit.class.getName());
        assertThatThrownBy(() -> MockInvoker.create(RiskyService.class, url, support))
                .hasMessage("type.mock: return dev.weft.rpc.mock.fixtures.NotAServiceWithInit (expected: a value of type"
                        + " java.lang.Class<?> for type(); at column 8: java.lang.Class values are not"
                        + " accepted in mocks (they name classes))");
        assertThat(InitRecorder.INITIALISED).doesNotContain(NotAServiceWithInit.class.getName());
    }

    @Test
    void malicious_annotationTypeIds_areRefusedByTheValidator() {
        URL url = URL.valueOf("consumer://h/risky")
                .addParameter("shape.mock", "return {\"kind\": \"" + NotAServiceWithInit.class.getName() + "\"}");
        assertThatThrownBy(() -> MockInvoker.create(RiskyService.class, url, support))
                .isInstanceOf(MockConfigurationException.class)
                .hasMessageContaining("shape.mock: return {\"kind\": ")
                .hasMessageContaining("(expected: a value of type dev.weft.rpc.mock.fixtures.Polymorphic for shape(); at column 8:");
        assertThat(InitRecorder.INITIALISED).doesNotContain(NotAServiceWithInit.class.getName());
    }

    @Test
    void malicious_objectReturnType_getsPlainMapsOnly() throws Throwable {
        URL url = URL.valueOf("consumer://h/risky").addParameter("anything.mock", "force:return {\"a\": [1, {\"b\": true}]}");
        MockInvoker<RiskyService> m = MockInvoker.create(RiskyService.class, url, support);
        Object v = m.invoke(new RpcInvocation(RiskyService.class.getMethod("anything"), null)).recreate();
        assertThat(v).isEqualTo(Map.of("a", List.of(1, Map.of("b", true))));
    }

    // ---------------------------------------------------------------- invoke without a mock

    @Test
    void invoke_withoutMockForTheMethod_fails() {
        assertThatThrownBy(() -> mock("count.mock", "return 1").invoke(call("sayHello", "x")))
                .isInstanceOf(RpcException.class)
                .hasMessage("No mock for dev.weft.rpc.mock.fixtures.UserService.sayHello(java.lang.String) (expected: a 'mock'"
                        + " or 'sayHello.mock' key in consumer://10.0.0.1/dev.weft.rpc.mock.fixtures.UserService?count.mock=return+1)");
    }

    @Test
    void undeclaredMethod_usesInterfaceLevelMock_convertedToItsReturnType() throws Throwable {
        MockInvoker<UserService> m = mock("mock", "force:return empty");
        RpcInvocation undeclared = new RpcInvocation("$echo", new Class<?>[] {String.class}, new Object[] {"x"},
                List.class, List.class);
        assertThat(m.invoke(undeclared).recreate()).isEqualTo(List.of());
    }
}
