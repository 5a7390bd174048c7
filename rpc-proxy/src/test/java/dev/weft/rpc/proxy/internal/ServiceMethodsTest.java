package dev.weft.rpc.proxy.internal;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ServiceMethodsTest {

    interface Base {
        Object value();

        default String greet() {
            return "hi";
        }

        static Base create() {
            return null;
        }
    }

    interface Shapes extends Base {
        @Override
        String value();

        int size(int[] values);

        int size(List<String> values);

        @Override
        String toString();
    }

    @Test
    void table_sortsBySignature_excludingStaticAndObjectMethods_keepingDefaults() {
        ServiceMethods methods = ServiceMethods.of(Shapes.class);

        assertThat(methods.signatures()).containsExactly("greet()", "size(int[])", "size(java.util.List)", "value()");
        assertThat(methods.find("size", new Class<?>[] {int[].class}).index()).isEqualTo(1);
        assertThat(methods.find("size", new Class<?>[] {long[].class})).isNull();
        assertThat(methods.find("toString", new Class<?>[0])).isNull();
        assertThat(ServiceMethods.of(Shapes.class)).isSameAs(methods);
    }

    @Test
    void covariantReturns_resolveToTheMostSpecific_andBindBothDescriptors() {
        ServiceMethods methods = ServiceMethods.of(Shapes.class);

        ServiceMethod value = methods.find("value", new Class<?>[0]);
        assertThat(value.returnType()).isEqualTo(String.class);
        assertThat(methods.bindings())
                .filteredOn(binding -> binding.method().getName().equals("value"))
                .extracting(binding -> binding.method().getReturnType(), ServiceMethods.Binding::index)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(String.class, value.index()),
                        org.assertj.core.groups.Tuple.tuple(Object.class, value.index()));
    }
}
