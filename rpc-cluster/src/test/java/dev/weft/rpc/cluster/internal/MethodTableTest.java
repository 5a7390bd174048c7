package dev.weft.rpc.cluster.internal;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MethodTableTest {

    @Test
    void empty_answersNull() {
        assertThat(MethodTable.<Integer>empty().get("hello")).isNull();
        assertThat(MethodTable.empty().size()).isZero();
    }

    @Test
    void with_addsAndReplaces_withoutChangingTheOriginal() {
        MethodTable<Integer> one = MethodTable.<Integer>empty().with("hello", 1);
        MethodTable<Integer> two = one.with("bye", 2);
        MethodTable<Integer> replaced = two.with("hello", 3);

        assertThat(one.get("hello")).isEqualTo(1);
        assertThat(one.get("bye")).isNull();
        assertThat(two.get("bye")).isEqualTo(2);
        assertThat(replaced.get("hello")).isEqualTo(3);
        assertThat(replaced.size()).isEqualTo(2);
        assertThat(two.get("hello")).as("the original is immutable").isEqualTo(1);
    }

    @Test
    void get_findsEqualNamesThatAreNotTheSameInstance() {
        MethodTable<String> table = MethodTable.<String>empty().with("greet", "x");
        String copy = new String("greet".toCharArray());
        assertThat(copy).isNotSameAs("greet");
        assertThat(table.get(copy)).isEqualTo("x");
    }

    @Test
    void agreesWithAHashMap_overManyRandomNames_includingCollidingHashes() {
        Random random = new Random(42);
        Map<String, Integer> expected = new HashMap<>();
        MethodTable<Integer> table = MethodTable.empty();
        // "Aa" and "BB" have the same String.hashCode: collisions must be probed past
        for (String name : new String[] {"Aa", "BB", "AaAa", "BBBB", "AaBB", "BBAa"}) {
            expected.put(name, expected.size());
            table = table.with(name, expected.get(name));
        }
        for (int i = 0; i < 2_000; i++) {
            String name = "m" + random.nextInt(500);
            table = table.with(name, i);
            expected.put(name, i);
        }
        assertThat(table.size()).isEqualTo(expected.size());
        for (Map.Entry<String, Integer> entry : expected.entrySet()) {
            assertThat(table.get(entry.getKey())).as(entry.getKey()).isEqualTo(entry.getValue());
        }
        for (int i = 500; i < 600; i++) {
            assertThat(table.get("m" + i)).isNull();
        }
    }

    @Test
    void with_rejectsNulls() {
        assertThatThrownBy(() -> MethodTable.<Integer>empty().with(null, 1)).isInstanceOf(NullPointerException.class).hasMessage("method");
        assertThatThrownBy(() -> MethodTable.<Integer>empty().with("m", null)).isInstanceOf(NullPointerException.class).hasMessage("value");
    }
}
