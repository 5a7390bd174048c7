package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class NodeNamesTest {

    @Test
    void encode_sortsParameters_soOneUrlHasOneName() {
        URL a = URL.valueOf("weft://10.0.0.1:20880/com.example.DemoService?weight=200&application=demo&timeout=300");
        URL b = URL.valueOf("weft://10.0.0.1:20880/com.example.DemoService?timeout=300&weight=200&application=demo");

        assertThat(NodeNames.encode(a)).isEqualTo(NodeNames.encode(b))
                .isEqualTo("weft%3A%2F%2F10.0.0.1%3A20880%2Fcom.example.DemoService"
                        + "%3Fapplication%3Ddemo%26timeout%3D300%26weight%3D200")
                .doesNotContain("/");
    }

    @Test
    void decode_givesBackWhatEncodeWrote_specialCharactersIncluded() {
        URL url = URL.valueOf("weft://10.0.0.1:20880/com.example.DemoService"
                + "?sayHello.mock=force%3Areturn+degraded&methods=a%2Cb&note=50%25+%26+more%3D&greeting=%E4%BD%A0%E5%A5%BD");

        URL back = NodeNames.decode(NodeNames.encode(url));

        assertThat(back).isEqualTo(url);
        assertThat(back.getParameter("sayHello.mock")).isEqualTo("force:return degraded");
        assertThat(back.getParameter("note")).isEqualTo("50% & more=");
    }

    @Test
    void decode_readsDubbo26ProviderName() {
        String name = "dubbo%3A%2F%2F192.168.1.5%3A20880%2Fcom.alibaba.dubbo.demo.DemoService%3Fanyhost%3Dtrue"
                + "%26application%3Ddemo-provider%26dubbo%3D2.6.2%26generic%3Dfalse"
                + "%26interface%3Dcom.alibaba.dubbo.demo.DemoService%26methods%3DsayHello%2CsayBye"
                + "%26pid%3D1234%26side%3Dprovider%26timestamp%3D1530000000000";

        URL url = NodeNames.decode(name);

        assertThat(url.getProtocol()).isEqualTo("dubbo");
        assertThat(url.getAddress()).isEqualTo("192.168.1.5:20880");
        assertThat(url.getServiceInterface()).isEqualTo("com.alibaba.dubbo.demo.DemoService");
        assertThat(url.getParameter("methods")).isEqualTo("sayHello,sayBye");
        assertThat(url.getParameter("timestamp")).isEqualTo("1530000000000");
    }

    @Test
    void decode_readsDubbo26OverrideName_plusIsASpace() {
        String name = "override%3A%2F%2F0.0.0.0%2Fcom.alibaba.dubbo.demo.DemoService%3Fcategory%3Dconfigurators"
                + "%26dynamic%3Dfalse%26enabled%3Dtrue%26mock%3Dforce%3Areturn+null";

        URL url = NodeNames.decode(name);

        assertThat(url.getProtocol()).isEqualTo("override");
        assertThat(url.getHost()).isEqualTo("0.0.0.0");
        assertThat(url.getParameter("mock")).isEqualTo("force:return null");
        assertThat(url.getParameter("dynamic")).isEqualTo("false");
    }

    @Test
    void decode_readsTheDesignDocumentsZkCliOverride() {
        String name = "override%3A%2F%2F0.0.0.0%2Fcom.example.DemoService%3Fcategory%3Dconfigurators%26dynamic%3Dfalse"
                + "%26sayHello.mock%3Dforce%3Areturn+degraded";

        URL url = NodeNames.decode(name);

        assertThat(url.getServiceInterface()).isEqualTo("com.example.DemoService");
        assertThat(url.getMethodParameter("sayHello", "mock")).isEqualTo("force:return degraded");
        assertThat(url.getMethodParameter("sayBye", "mock")).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "not-a-url",
        "%ZZbroken",
        "weft%3A%2F%2Fhost%3A99999%2Fsvc",
        "dubbo%3A%2F%2Fh%3A1%2Fs%3Fratio%3D100%25",
    })
    void decode_rejectsNamesThatAreNotUrls_withTheName(String name) {
        assertThatIllegalArgumentException().isThrownBy(() -> NodeNames.decode(name))
                .withMessageContaining("expected");
    }
}
