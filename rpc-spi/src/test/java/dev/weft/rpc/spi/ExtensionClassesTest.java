package dev.weft.rpc.spi;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ExtensionClassesTest {

    @Test
    void derivedName_dropsTheInterfaceSuffixAndLowerCases() {
        assertThat(ExtensionClasses.derivedName("com.example.RandomLoadBalance", LoadBalance.class)).isEqualTo("random");
        assertThat(ExtensionClasses.derivedName("com.example.Outer$InnerLoadBalance", LoadBalance.class)).isEqualTo("inner");
        assertThat(ExtensionClasses.derivedName("com.example.Custom", LoadBalance.class)).isEqualTo("custom");
        assertThat(ExtensionClasses.derivedName("com.example.ITALIC", LoadBalance.class)).isEqualTo("italic");
    }

    interface LoadBalance {
    }
}
