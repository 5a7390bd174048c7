package dev.weft.rpc.spi;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The URL key an {@code @Adaptive} method without keys reads, and which arguments can carry the URL. */
class AdaptiveKeysAndUrlsTest {

    private final ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader());

    @AfterEach
    void close() {
        director.close();
    }

    @SPI
    public interface HTTPServer {
        @Adaptive
        String serve(URL url);
    }

    @SPI
    public interface HttpIO {
        @Adaptive
        String serve(URL url);
    }

    @SPI("plain")
    public interface Http2Codec {
        @Adaptive
        String serve(URL url);
    }

    /** Has a getUrl() returning the wrong type. */
    public static final class NotAUrlHolder {
        public String getUrl() {
            return "t://h";
        }
    }

    /** Has a static getUrl(). */
    public static final class StaticUrlHolder {
        public static URL getUrl() {
            return URL.valueOf("t://h");
        }
    }

    /** Not public, so its getUrl() cannot be called from generated code. */
    static final class HiddenUrlHolder {
        public URL getUrl() {
            return URL.valueOf("t://h");
        }
    }

    @SPI
    public interface PrimitiveOnly {
        @Adaptive
        String serve(int port, String[] names);
    }

    @SPI
    public interface WrongGetter {
        @Adaptive
        String serve(NotAUrlHolder holder);
    }

    @SPI
    public interface StaticGetter {
        @Adaptive
        String serve(StaticUrlHolder holder);
    }

    @SPI
    public interface HiddenGetter {
        @Adaptive
        String serve(HiddenUrlHolder holder);
    }

    @SPI
    public interface Overloaded {
        @Adaptive
        String pick(URL url, long a);

        @Adaptive
        String pick(URL url);

        @Adaptive
        String pick(URL url, int a);
    }

    private String describe(Class<?> type) {
        return director.getExtensionLoader(type).describeAdaptive();
    }

    @Test
    void defaultKey_splitsTheSimpleNameAtCaseChanges() {
        assertThat(describe(HTTPServer.class)).endsWith("for key in [http.server]").contains("(default: none)");
        assertThat(describe(HttpIO.class)).endsWith("for key in [http.io]");
        assertThat(describe(Http2Codec.class)).endsWith("for key in [http2.codec]").contains("(default: plain)");
    }

    @Test
    void adaptiveMethod_withoutAUsableUrlArgument_isAProblemNamingIt() {
        for (Class<?> type : new Class<?>[] {PrimitiveOnly.class, WrongGetter.class, StaticGetter.class, HiddenGetter.class}) {
            ExtensionLoader<?> loader = director.getExtensionLoader(type);

            assertThat(loader.getProblems()).as(type.getSimpleName()).singleElement().asString()
                    .startsWith("@Adaptive method: " + type.getName() + ".serve (expected: a parameter of type "
                            + URL.class.getName());
            assertThatThrownBy(loader::getAdaptiveExtension).as(type.getSimpleName())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(type.getName() + ".serve");
        }
    }

    @Test
    void describeAdaptive_listsOverloadsByDescriptor() {
        assertThat(describe(Overloaded.class).lines().skip(1).map(line -> line.substring(0, line.indexOf(" ->"))))
                .containsExactly("  pick(URL arg0)", "  pick(URL arg0, int arg1)", "  pick(URL arg0, long arg1)");
    }
}
