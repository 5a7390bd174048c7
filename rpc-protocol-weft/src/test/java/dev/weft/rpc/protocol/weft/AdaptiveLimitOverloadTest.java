package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.AsyncResult;
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

import java.lang.reflect.Method;
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
 * that never fills. The server admits each call under the adaptive limit as it reads it: the excess
 * is answered busy there and then, without a thread, and the calls at the provider stay few, so the
 * admitted ones wait behind few others. (Admitted behind the queue instead, the limit starts above
 * twice what 8 threads can hold in flight, never moves, and every call joins a growing queue.)
 * Time bounds are relative (busy answers sooner than answers) or counts, as the host may be busy.
 */
class AdaptiveLimitOverloadTest {

    private static final int CORES = 2;
    private static final long SERVICE_MILLIS = 10;
    private static final int OFFERED_PER_SECOND = 500;
    private static final int CALLS = 1000;

    /** One call's outcome, seen by the consumer: how long it took, answered, busy, and busy as the provider read it. */
    private record Outcome(long nanos, boolean answered, boolean busy, boolean refusedAsRead) {
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
            int mostAtProvider = 0; // calls read and not yet answered, queued or running, sampled as each call is sent
            try {
                CountDownLatch ended = new CountDownLatch(CALLS);
                Method echo = Shapes.class.getMethod("echo", String.class);
                ExportedService exportedService = ((WeftExporter<?>) exporter).service();
                long start = System.nanoTime();
                long period = TimeUnit.SECONDS.toNanos(1) / OFFERED_PER_SECOND;
                for (int i = 0; i < CALLS; i++) {
                    long due = start + i * period;
                    LockSupport.parkNanos(due - System.nanoTime());
                    long sent = System.nanoTime();
                    Result result;
                    try {
                        result = invoker.invoke(new RpcInvocation(echo, new Object[] {"call " + i}));
                    } catch (RpcException e) {
                        result = AsyncResult.failed(e);
                    }
                    mostAtProvider = Math.max(mostAtProvider, exportedService.inFlight());
                    result.whenComplete((answer, failure) -> {
                        Throwable error = failure != null ? failure : answer.getException();
                        outcomes.add(new Outcome(System.nanoTime() - sent, error == null,
                                error instanceof RpcException e && e.isNotProcessed(),
                                error != null && String.valueOf(error.getMessage()).contains("is at its adaptive limit")));
                        ended.countDown();
                    });
                }
                assertThat(ended.await(60, TimeUnit.SECONDS)).as("every call ended").isTrue();
            } finally {
                invoker.destroy();
                exporter.unexport();
            }

            List<Long> answered = outcomes.stream().filter(Outcome::answered).map(Outcome::nanos).sorted().toList();
            List<Long> busy = outcomes.stream().filter(Outcome::busy).map(Outcome::nanos).sorted().toList();
            long refusedAsRead = outcomes.stream().filter(Outcome::refusedAsRead).count();
            System.out.printf("adaptive overload: %d answered (median %d ms), %d busy (median %d ms, %d refused as read), %d other;"
                            + " at most %d calls at the provider; limits %s%n", answered.size(),
                    answered.isEmpty() ? -1 : millis(answered.get(answered.size() / 2)), busy.size(),
                    busy.isEmpty() ? -1 : millis(busy.get(busy.size() / 2)), refusedAsRead,
                    outcomes.stream().filter(o -> !o.answered() && !o.busy()).count(), mostAtProvider,
                    ExecuteLimits.of(director).adaptiveLimits());
            assertThat(outcomes).as("answered or busy, nothing else").allSatisfy(o -> assertThat(o.answered() || o.busy()).isTrue());
            assertThat(busy).as("the excess answered busy").hasSizeGreaterThan(CALLS / 4);
            assertThat(answered).as("answered: the service kept working").hasSizeGreaterThan(CALLS / 20);
            assertThat(ExecuteLimits.of(director).busyAnswers()).isEqualTo(busy.size());
            assertThat(refusedAsRead).as("busy answers given as the call was read, without a thread").isGreaterThan(busy.size() * 9L / 10);
            assertThat(mostAtProvider).as("calls queued or running at the provider: the admitted calls wait behind few others")
                    .isLessThanOrEqualTo(40);
            assertThat(busy.get(busy.size() / 2)).as("median busy answer: sooner than the median answer")
                    .isLessThan(answered.get(answered.size() / 2));
            ExecuteLimits.Admission after = ExecuteLimits.of(director).admitOnReceipt(exporter.getInvoker().getUrl(),
                    Shapes.class.getName(), "echo");
            assertThat(after.isAdmitted()).as("every place under the limit given back").isTrue();
            after.notRun();
        }
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
