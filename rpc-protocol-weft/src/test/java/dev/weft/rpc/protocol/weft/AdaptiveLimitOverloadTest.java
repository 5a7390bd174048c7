package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.protocol.filter.ExecuteLimits;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code executes=auto} on a real socket, overloaded: a service that runs 2 calls at once, 10 ms
 * each (200 calls/s), offered 500 calls/s open-loop for 2 s, behind 8 business threads and a queue
 * that never fills. The adaptive limit sits behind that queue and starts above twice what the 8
 * threads can hold in flight; timed from when the server received each call, it comes down, so the
 * excess is answered busy at once and the admitted calls do not wait behind a growing queue.
 */
class AdaptiveLimitOverloadTest {

    private static final int CORES = 2;
    private static final long SERVICE_MILLIS = 10;
    private static final int OFFERED_PER_SECOND = 500;
    private static final int CALLS = 1000;

    /** One call's outcome, seen by the consumer: when it was sent (index), how long it took, answered or busy. */
    private record Outcome(int index, long nanos, boolean answered, boolean busy) {
    }

    @Test
    void executesAuto_overloadedBehindFewThreads_answersTheExcessBusyQuickly_andBoundsTheAdmittedLatency() throws Exception {
        Semaphore cores = new Semaphore(CORES);
        Shapes service = (Shapes) Proxy.newProxyInstance(Shapes.class.getClassLoader(), new Class<?>[] {Shapes.class}, (p, method, args) -> {
            if (!method.getName().equals("echo")) {
                throw new UnsupportedOperationException(method.getName());
            }
            cores.acquire();
            try {
                Thread.sleep(SERVICE_MILLIS);
                return args[0];
            } finally {
                cores.release();
            }
        });
        Queue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
        try (ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader())) {
            Protocol weft = director.getExtensionLoader(Protocol.class).getExtension("weft");
            URL exported = URL.valueOf("weft://127.0.0.1:0/" + Shapes.class.getName()
                    + "?executes=auto&threads=8&queues=100000&connection-calls=100000");
            Exporter<Shapes> exporter = weft.export(Loopback.provider(Shapes.class, service, exported));
            Invoker<Shapes> invoker = weft.refer(Shapes.class, URL.valueOf("weft://127.0.0.1:" + exporter.getInvoker().getUrl().getPort()
                    + "/" + Shapes.class.getName() + "?timeout=30000"));
            try {
                CountDownLatch ended = new CountDownLatch(CALLS);
                long start = System.nanoTime();
                long period = TimeUnit.SECONDS.toNanos(1) / OFFERED_PER_SECOND;
                for (int i = 0; i < CALLS; i++) {
                    long due = start + i * period;
                    LockSupport.parkNanos(due - System.nanoTime());
                    int index = i;
                    long sent = System.nanoTime();
                    Result result = invoker.invoke(new RpcInvocation(Shapes.class.getMethod("echo", String.class), new Object[] {"call " + i}));
                    result.whenComplete((answer, failure) -> {
                        Throwable error = failure != null ? failure : answer.getException();
                        outcomes.add(new Outcome(index, System.nanoTime() - sent, error == null,
                                error instanceof RpcException e && e.isNotProcessed()));
                        ended.countDown();
                    });
                }
                assertThat(ended.await(60, TimeUnit.SECONDS)).as("every call ended").isTrue();
            } finally {
                invoker.destroy();
                exporter.unexport();
            }

            List<Long> admittedLate = outcomes.stream().filter(o -> o.answered() && o.index() >= CALLS / 2)
                    .map(Outcome::nanos).sorted().toList();
            List<Long> busy = outcomes.stream().filter(Outcome::busy).map(Outcome::nanos).sorted().toList();
            System.out.printf("adaptive overload: %d answered (%d in the second half), %d busy, %d other; limits %s%n",
                    outcomes.stream().filter(Outcome::answered).count(), admittedLate.size(), busy.size(),
                    outcomes.stream().filter(o -> !o.answered() && !o.busy()).count(), ExecuteLimits.of(director).adaptiveLimits());
            assertThat(outcomes).as("answered or busy, nothing else").allSatisfy(o -> assertThat(o.answered() || o.busy()).isTrue());
            assertThat(busy).as("the excess answered busy").hasSizeGreaterThan(CALLS / 4);
            assertThat(ExecuteLimits.of(director).busyAnswers()).isEqualTo(busy.size());
            assertThat(millis(busy.get(busy.size() / 2))).as("median busy answer, ms: at once, not after a queue").isLessThan(300);
            assertThat(admittedLate).as("calls admitted in the second half").hasSizeGreaterThan(50);
            assertThat(millis(admittedLate.get(admittedLate.size() * 9 / 10))).as("p90 of the admitted calls of the second half, ms")
                    .isLessThan(400);
        }
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
