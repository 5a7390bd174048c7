package dev.weft.rpc.loadbalance.internal;

import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ListSlotsTest {

    private final ListSlots<String> slots = new ListSlots<>();

    @Test
    void get_answersOnlyForTheVeryListInstancePut() {
        List<Object> list = List.of(new Object(), new Object());
        slots.put(list, "a");
        assertThat(slots.get(list)).isEqualTo("a");
        assertThat(slots.get(new ArrayList<>(list))).as("an equal copy is another instance").isNull();
    }

    @Test
    void get_missesOnceTheListChangedSize() {
        List<Object> list = new ArrayList<>(List.of(new Object()));
        slots.put(list, "a");
        list.add(new Object());
        assertThat(slots.get(list)).isNull();
    }

    @Test
    void manyLists_neverAnswerAnotherListsValue_andTheLastPutIsAlwaysFound() {
        List<List<Object>> lists = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            List<Object> list = List.of(new Object());
            lists.add(list);
            slots.put(list, "v" + i);
        }
        for (int i = 0; i < lists.size(); i++) {
            // identity hashes differ per run: two lists may share a slot, which evicts, never confuses
            assertThat(slots.get(lists.get(i))).isIn(null, "v" + i);
        }
        assertThat(slots.get(lists.get(lists.size() - 1))).isEqualTo("v7");
    }

    @Test
    void slotsReferToListsWeakly() throws InterruptedException {
        List<Object> list = new ArrayList<>(List.of(new Object()));
        WeakReference<List<Object>> ref = new WeakReference<>(list);
        slots.put(list, "a");
        list = null;
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(ref.get()).isNull();
    }
}
