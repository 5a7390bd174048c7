package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Serialization;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Types never come from the wire; the serialization is pinned; Jackson's input is bounded. */
class SecurityTest {

    private Loopback loopback;
    private ShapesImpl impl;
    private Exporter<Shapes> exporter;

    @BeforeEach
    void setUp() {
        loopback = new Loopback();
        impl = new ShapesImpl();
        exporter = loopback.export(Shapes.class, impl, "");
    }

    @AfterEach
    void tearDown() {
        loopback.close();
        assertThat(CanaryFlag.INITIALISED).isFalse();
    }

    @AfterAll
    static void noLeaks() {
        LeakCounter.assertNoLeaks();
    }

    @Test
    void typeHintsInJson_neverLoadTheNamedClass() throws IOException {
        JsonSerialization json = new JsonSerialization();
        String hostile = "{\"@class\":\"" + CanaryFlag.CANARY_CLASS + "\",\"message\":\"boom\"}"
                + "[\"" + CanaryFlag.CANARY_CLASS + "\",{\"message\":\"boom\"}]";
        Serialization.ObjectInput in = json.deserialize(new ByteArrayInputStream(hostile.getBytes(StandardCharsets.UTF_8)));

        assertThat(in.readObject(Object.class)).isInstanceOf(Map.class);
        assertThat(in.readObject(Object.class)).isInstanceOf(List.class);
        assertThat(CanaryFlag.INITIALISED).isFalse();
    }

    @Test
    void hostileArgumentOverTheWire_arrivesAsAMap_canaryUntouched() {
        Shapes shapes = Loopback.proxy(Shapes.class, loopback.refer(Shapes.class, exporter, ""));
        Object value = Map.of("@class", CanaryFlag.CANARY_CLASS, "message", "boom");
        assertThat(shapes.any(value)).isEqualTo("java.util.LinkedHashMap");
    }

    @Test
    void remoteExceptionNamingAnUnknownClass_becomesBizRpcException_classNeverLoaded() throws Exception {
        ExceptionCodec codec = new ExceptionCodec();
        Method fail = Shapes.class.getMethod("fail", String.class);
        Throwable recreated = codec.recreate(new RemoteError(CanaryFlag.CANARY_CLASS, "boom", List.of(), -1), fail,
                "127.0.0.1:1", new JsonSerialization());
        assertThat(recreated).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isBiz()).isTrue())
                .hasMessageContaining(CanaryFlag.CANARY_CLASS).hasMessageContaining("boom");
    }

    @Test
    void jsonLimits_refuseDeepNesting() {
        JsonSerialization json = new JsonSerialization();
        String deep = "[".repeat(JsonSerialization.MAX_NESTING_DEPTH + 10) + "]".repeat(JsonSerialization.MAX_NESTING_DEPTH + 10);
        assertThatThrownBy(() -> json.deserialize(new ByteArrayInputStream(deep.getBytes(StandardCharsets.UTF_8)))
                .readObject(Object.class))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("nesting depth");
    }

    @Test
    void frameWithAnotherSerializationId_isRefusedBeforeDecoding_serviceNotRun() throws Exception {
        Serialization impostor = new Serialization() {
            private final JsonSerialization json = new JsonSerialization();

            @Override
            public byte getId() {
                return 9;
            }

            @Override
            public ObjectOutput serialize(OutputStream out) throws IOException {
                return json.serialize(out);
            }

            @Override
            public ObjectInput deserialize(InputStream in) throws IOException {
                return json.deserialize(in);
            }
        };
        ByteBuf request = RequestCodec.encode(ByteBufAllocator.DEFAULT, impostor, 1, 0, System.nanoTime(), Shapes.class.getName(),
                Shapes.class.getMethod("echo", String.class), new Object[] {"x"}, Map.of());
        byte[] bytes = new byte[request.readableBytes()];
        request.readBytes(bytes);
        request.release();

        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), exporter.getInvoker().getUrl().getPort())) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(bytes);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] header = new byte[Frame.HEADER_LENGTH];
            in.readFully(header);
            byte[] body = new byte[((header[20] & 0xff) << 24) | ((header[21] & 0xff) << 16) | ((header[22] & 0xff) << 8)
                    | (header[23] & 0xff)];
            in.readFully(body);

            assertThat(header[4]).isEqualTo((byte) Status.BAD_REQUEST);
            assertThat(new String(body, StandardCharsets.UTF_8)).isEqualTo("serialization id: 9 (expected: 1, the json"
                    + " serialization of " + Shapes.class.getName() + ")");
        }
        assertThat(impl.calls).hasValue(0);
    }
}
