package dev.weft.rpc.mock;

import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.fixtures.Containers;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code return empty} and {@code return null} for every kind of container a method may declare. */
class ReturnEmptyAndNullTest {

    private final MockSupport support = new MockSupport(new ReflectiveInvokers());

    private MockInvoker<Containers> mock(String key, String expression) {
        return MockInvoker.create(Containers.class,
                URL.valueOf("consumer://10.0.0.1/" + Containers.class.getName()).addParameter(key, expression), support);
    }

    private static Object value(MockInvoker<Containers> mock, String method) throws Throwable {
        return mock.invoke(new RpcInvocation(Containers.class.getMethod(method), new Object[0])).recreate();
    }

    @Test
    void returnEmpty_interfacesGetTheirUsualEmptyImplementation() throws Throwable {
        MockInvoker<Containers> mock = mock("mock", "force:return empty");
        assertThat(value(mock, "queue")).isExactlyInstanceOf(ArrayDeque.class);
        assertThat(value(mock, "deque")).isExactlyInstanceOf(ArrayDeque.class);
        assertThat(value(mock, "navigableSet")).isExactlyInstanceOf(TreeSet.class);
        assertThat(value(mock, "sortedSet")).isExactlyInstanceOf(TreeSet.class);
        assertThat(value(mock, "set")).isExactlyInstanceOf(LinkedHashSet.class);
        assertThat(value(mock, "collection")).isExactlyInstanceOf(ArrayList.class);
        assertThat(value(mock, "iterable")).isExactlyInstanceOf(ArrayList.class);
        assertThat(value(mock, "list")).isExactlyInstanceOf(ArrayList.class);
        assertThat(value(mock, "navigableMap")).isExactlyInstanceOf(TreeMap.class);
        assertThat(value(mock, "sortedMap")).isExactlyInstanceOf(TreeMap.class);
        assertThat(value(mock, "concurrentMap")).isExactlyInstanceOf(ConcurrentHashMap.class);
        assertThat(value(mock, "map")).isExactlyInstanceOf(LinkedHashMap.class);
        for (String method : new String[] {"queue", "deque", "navigableSet", "sortedSet", "set", "collection", "iterable", "list"}) {
            assertThat((Collection<?>) value(mock, method)).as(method).isEmpty();
        }
    }

    @Test
    void returnEmpty_concreteCollections_areNewInstancesOfThatClass_eachCall() throws Throwable {
        MockInvoker<Containers> mock = mock("mock", "force:return empty");
        Object first = value(mock, "arrayList");
        assertThat(first).isExactlyInstanceOf(ArrayList.class).isEqualTo(new ArrayList<>());
        assertThat(value(mock, "arrayList")).isNotSameAs(first);
        assertThat(value(mock, "hashMap")).isExactlyInstanceOf(HashMap.class).isEqualTo(new HashMap<>());
    }

    @Test
    void returnEmpty_typesWithoutAnEmptyValue_getNull() throws Throwable {
        MockInvoker<Containers> mock = mock("mock", "force:return empty");
        assertThat(value(mock, "abstractList")).as("abstract class").isNull();
        assertThat(value(mock, "sizedList")).as("no no-argument constructor").isNull();
        assertThat(value(mock, "task")).as("other interface").isNull();
        assertThat(value(mock, "unbuildable")).as("no way to build it from {}").isNull();
        assertThat(value(mock, "anything")).isNull();
    }

    @Test
    void returnEmpty_streamsOptionalsAndFutures() throws Throwable {
        MockInvoker<Containers> mock = mock("mock", "force:return empty");
        assertThat(((Stream<?>) value(mock, "stream")).count()).isZero();
        assertThat(value(mock, "optionalInt")).isEqualTo(OptionalInt.empty());
        assertThat(value(mock, "optional")).isEqualTo(Optional.empty());
        assertThat(completed(value(mock, "stage"))).isEqualTo("");
        assertThat(completed(value(mock, "future"))).isEqualTo(0);
    }

    /**
     * The element a mocked call answers: a {@code CompletionStage<T>} method's call carries the element
     * itself (the proxy completes the caller's future with it); a plain {@code Future<T>} method's
     * call carries a completed future of it.
     */
    private static Object completed(Object value) {
        if (value instanceof Future<?> future) {
            assertThat(future).isDone();
            return ((CompletableFuture<?>) future).join();
        }
        assertThat(value instanceof CompletionStage).isFalse();
        return value;
    }

    @Test
    void returnValue_futuresAndStagesAreCompletedWithTheElementType() throws Throwable {
        assertThat(completed(value(mock("stage.mock", "return 'ready'"), "stage"))).isEqualTo("ready");
        assertThat(completed(value(mock("future.mock", "return 7"), "future"))).isEqualTo(7);
    }

    @Test
    void returnNull_forAnOptional_isEmpty_andForAFuture_completesWithNull() throws Throwable {
        assertThat(value(mock("optional.mock", "return null"), "optional")).isEqualTo(Optional.empty());
        assertThat(completed(value(mock("stage.mock", "return"), "stage"))).isNull();
    }
}
