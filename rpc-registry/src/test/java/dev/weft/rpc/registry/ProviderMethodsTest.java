package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProviderMethodsTest {

    interface Base {
        String find(String id);
    }

    interface Catalog extends Base {
        String list();

        String find(String id, int limit);

        default String describe() {
            return "catalog";
        }

        static Catalog none() {
            return null;
        }
    }

    @Test
    void of_namesEachInstanceMethodOnce_inheritedIncluded_sorted_noStaticOnes() {
        assertThat(ProviderMethods.of(Catalog.class)).isEqualTo("describe,find,list");
    }

    @Test
    void listedBy_joinsWhatTheProvidersList_andIsEmptyWhenNoneListsThem() {
        URL a = URL.valueOf("weft://127.0.0.1:1/S?methods=find,list");
        URL b = URL.valueOf("weft://127.0.0.1:2/S?methods=describe,find");
        URL foreign = URL.valueOf("dubbo://127.0.0.1:3/S");

        assertThat(ProviderMethods.listedBy(List.of(a, b, foreign))).containsExactly("describe", "find", "list");
        assertThat(ProviderMethods.listedBy(List.of(foreign))).isEmpty();
    }
}
