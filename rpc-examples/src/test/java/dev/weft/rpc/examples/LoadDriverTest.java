package dev.weft.rpc.examples;

import dev.weft.rpc.common.RpcException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

class LoadDriverTest {

    private static ProgressBar silent(long total) {
        return new ProgressBar(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false, total);
    }

    @Test
    void everyCallIsMadeOnce_andClassifiedByItsAnswer() throws InterruptedException {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        GreetingService service = name -> {
            if (!seen.add(name)) {
                throw new AssertionError("called twice: " + name);
            }
            int n = Integer.parseInt(name.substring("call-".length()));
            return switch (n % 4) {
                case 0 -> name + "@a";                // a provider answered
                case 1 -> null;                       // swallowed failure
                case 2 -> "fallback";                 // a mock answered
                default -> throw new RpcException(RpcException.NETWORK_EXCEPTION, "down " + name);
            };
        };
        ProgressBar progress = silent(1000);

        CallTally tally = new LoadDriver(1000, 6).run(service, progress, "test");

        assertThat(seen).hasSize(1000);
        assertThat(progress.done()).isEqualTo(1000);
        assertThat(tally.count(CallTally.Outcome.OK)).isEqualTo(250);
        assertThat(tally.count(CallTally.Outcome.EMPTY)).isEqualTo(250);
        assertThat(tally.count(CallTally.Outcome.MOCKED)).isEqualTo(250);
        assertThat(tally.count(CallTally.Outcome.FAILED)).isEqualTo(250);
        assertThat(tally.latencies()).hasSize(1000);
        assertThat(java.util.Arrays.stream(tally.latencies()).min().orElseThrow()).isGreaterThan(0);
        ScenarioResult.TopError top = tally.topError();
        assertThat(top.kind()).isEqualTo("RpcException(NETWORK)");
        assertThat(top.count()).isEqualTo(250);
        assertThat(top.sample()).startsWith("down call-");
    }

    @Test
    void callerThreads_areGoneAfterTheRun() throws InterruptedException {
        new LoadDriver(50, 4).run(name -> name + "@a", silent(50), "threads");

        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().endsWith("[threads]")) {
                thread.join(5_000); // the pool has terminated; its workers are only exiting
            }
        }
        assertThat(Thread.getAllStackTraces().keySet())
                .noneMatch(thread -> thread.getName().startsWith("playground-caller-") && thread.isAlive()
                        && thread.getName().endsWith("[threads]"));
    }

    @Test
    void providerAnswer_isRecognisedOnlyForTheCallersName() {
        assertThat(GreetingServiceImpl.isProviderAnswer("call-1", new GreetingServiceImpl("b").greet("call-1"))).isTrue();
        assertThat(GreetingServiceImpl.isProviderAnswer("call-1", "call-12@b")).isFalse();
        assertThat(GreetingServiceImpl.isProviderAnswer("call-1", "call-1")).isFalse();
        assertThat(GreetingServiceImpl.isProviderAnswer("call-1", "fallback")).isFalse();
        assertThat(GreetingServiceImpl.isProviderAnswer("call-1", 42)).isFalse();
    }

    @Test
    void errorKinds_areBounded() {
        CallTally tally = new CallTally(1);
        for (int i = 0; i < 100; i++) {
            tally.error("Kind" + i, "message " + i);
        }

        // 32 kinds once each, the 68 later kinds counted together
        assertThat(tally.topError().kind()).isEqualTo("other errors");
        assertThat(tally.topError().count()).isEqualTo(100 - CallTally.MAX_ERROR_KINDS);
        assertThat(tally.topError().sample()).isEqualTo("message 32");
    }
}
