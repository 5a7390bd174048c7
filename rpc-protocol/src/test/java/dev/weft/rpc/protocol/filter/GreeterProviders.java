package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Greeter;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;

import java.io.IOException;
import java.time.Duration;

/**
 * Fake providers of {@link Greeter} for the filter tests: {@code greet} answers
 * {@code "hello <name>"}, {@code farewell} fails like the network ({@code connection reset}),
 * {@code read} answers an {@link IOException} ({@code disk}).
 */
final class GreeterProviders {

    /** What the providers answer, by method. */
    static final Reply GREETER = (invocation, provider) -> switch (invocation.getMethodName()) {
        case "farewell" -> throw new RpcException(RpcException.NETWORK_EXCEPTION, "connection reset");
        case "read" -> RpcResult.ofException(new IOException("disk"));
        default -> RpcResult.of("hello " + invocation.getArguments()[0]);
    };

    private GreeterProviders() {
    }

    /** A provider at {@code url} answering {@link #GREETER}. */
    static FakeProvider<Greeter> at(String url) {
        return FakeProvider.at(Greeter.class, URL.valueOf(url)).answering(GREETER);
    }

    /** {@link #GREETER} after {@code work} of real time, so that concurrent calls overlap in the provider. */
    static Reply working(Duration work) {
        return (invocation, provider) -> {
            try {
                Thread.sleep(work.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            return GREETER.reply(invocation, provider);
        };
    }
}
