package dev.weft.rpc.examples.extension;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.StaticDirectory;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.CallLog;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeProviders;
import dev.weft.rpc.testing.Invocations;
import dev.weft.rpc.testing.IsolatedDirectorExtension;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(IsolatedDirectorExtension.class)
class PrimaryBackupClusterTest {

    private static final URL CONSUMER = URL.valueOf("consumer://10.0.0.9/" + Inventory.class.getName() + "?cluster=primarybackup");
    private static final Invocation RESERVE = Invocations.of(Inventory.class, "reserve", "sku-1", 2);

    private final List<FakeProvider<Inventory>> providers = FakeProviders.of(Inventory.class, 3);
    private final FakeProvider<Inventory> a = providers.get(0);
    private final FakeProvider<Inventory> b = providers.get(1);
    private final FakeProvider<Inventory> c = providers.get(2);
    private final CallLog log = CallLog.of(providers);

    private Invoker<Inventory> join(List<FakeProvider<Inventory>> listed) {
        return new PrimaryBackupCluster().join(new StaticDirectory<>(Inventory.class, CONSUMER, FakeProviders.invokers(listed)));
    }

    @Test
    void primaryAnswers_andNoBackupIsCalled() {
        Result result = join(providers).invoke(RESERVE);

        assertThat(result.getValue()).isEqualTo("a");
        assertThat(log.providers()).containsExactly("a");
    }

    @Test
    void networkErrorAndTimeout_moveDownTheBackups_inOrder() {
        a.thenFail(Reply.networkError());
        b.thenFail(Reply.timeout());

        Result result = join(providers).invoke(RESERVE);

        assertThat(result.getValue()).isEqualTo("c");
        assertThat(log.providers()).containsExactly("a", "b", "c");
    }

    @Test
    void notProcessed_movesOn_too() {
        a.thenFail(Reply.notProcessed());

        assertThat(join(providers).invoke(RESERVE).getValue()).isEqualTo("b");
    }

    @Test
    void rank_ordersProviders_lowerFirst_tiesKeepingListOrder() {
        a.parameter(PrimaryBackupCluster.RANK_KEY, "2");
        b.parameter(PrimaryBackupCluster.RANK_KEY, "1");
        a.failingWith(Reply.networkError());
        b.failingWith(Reply.networkError());
        c.failingWith(Reply.networkError());

        assertThatThrownBy(() -> join(providers).invoke(RESERVE)).isInstanceOf(RpcException.class);

        // c has the default rank 0, then b (1), then a (2)
        assertThat(log.providers()).containsExactly("c", "b", "a");
    }

    @Test
    void businessFailures_areReturnedAtOnce_neverTriedElsewhere() {
        IllegalStateException outOfStock = new IllegalStateException("out of stock");
        a.thenFail(outOfStock);
        b.thenFail(Reply.rpcFailure(RpcException.BIZ_EXCEPTION));
        Invoker<Inventory> primaryFirst = join(providers);
        Invoker<Inventory> backupFirst = join(List.of(b, c));

        assertThat(primaryFirst.invoke(RESERVE).getException()).isSameAs(outOfStock);
        assertThatThrownBy(() -> backupFirst.invoke(RESERVE))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isBiz()).isTrue());
        assertThat(log.providers()).containsExactly("a", "b");
    }

    @Test
    void everyProviderDown_failsWithTheLastCode_namingWhatWasTried() {
        a.thenFail(Reply.networkError());
        b.thenFail(Reply.networkError());
        c.thenFail(Reply.timeout());

        assertThatThrownBy(() -> join(providers).invoke(RESERVE))
                .isInstanceOfSatisfying(RpcException.class, e -> {
                    assertThat(e.isTimeout()).isTrue();
                    assertThat(e.getCause()).isInstanceOf(RpcException.class).hasMessageContaining("fake provider c");
                })
                .hasMessageStartingWith("primarybackup: every provider failed for method reserve of service "
                        + Inventory.class.getName() + " (tried [a:20880, b:20880, c:20880]; consumer: " + CONSUMER + ")");
    }

    @Test
    void unavailableProviders_areLeftOut_byTheDirectory() {
        a.available(false);

        assertThat(join(providers).invoke(RESERVE).getValue()).isEqualTo("b");
        assertThat(a.calls()).isZero();
    }

    @Test
    void emptyDirectory_failsWithNoInvokerAvailable() {
        Invoker<Inventory> invoker = new PrimaryBackupCluster().join(new StaticDirectory<>(Inventory.class, CONSUMER, List.of()));

        assertThatThrownBy(() -> invoker.invoke(RESERVE))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNoInvokerAvailable()).isTrue())
                .hasMessageContaining("method reserve of service " + Inventory.class.getName());
    }

    @Test
    void destroyed_refusesCalls_andIsUnavailable() {
        Invoker<Inventory> invoker = join(providers);

        invoker.destroy();

        assertThat(invoker.isAvailable()).isFalse();
        assertThatThrownBy(() -> invoker.invoke(RESERVE)).hasMessageContaining("is destroyed");
        assertThat(log.size()).isZero();
    }

    @Test
    void joinedInvoker_answersTheDirectorysUrlAndInterface() {
        Invoker<Inventory> invoker = join(providers);

        assertThat(invoker.getUrl()).isEqualTo(CONSUMER);
        assertThat(invoker.getInterface()).isEqualTo(Inventory.class);
    }

    @Test
    void adaptiveCluster_joinsWithPrimarybackup_byTheConsumerUrl(ExtensionDirector director) {
        a.thenFail(Reply.networkError());
        Cluster adaptive = director.getExtensionLoader(Cluster.class).getAdaptiveExtension();

        Invoker<Inventory> invoker = adaptive.join(new StaticDirectory<>(Inventory.class, CONSUMER, FakeProviders.invokers(providers)));

        assertThat(invoker.invoke(RESERVE).getValue()).isEqualTo("b");
        assertThat(log.providers()).containsExactly("a", "b");
    }

    @Test
    void concurrentCalls_useTheBackupExactlyOncePerPrimaryFailure() throws Exception {
        int failures = 1_000;
        for (int i = 0; i < failures; i++) {
            a.thenFail(Reply.networkError());
        }
        Invoker<Inventory> invoker = join(providers);
        int threads = 8;
        int perThread = 2_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Object> answers = new ArrayList<>();
        try {
            List<Future<List<Object>>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    List<Object> mine = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        mine.add(invoker.invoke(RESERVE).getValue());
                    }
                    return mine;
                }));
            }
            for (Future<List<Object>> future : futures) {
                answers.addAll(future.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(answers).hasSize(threads * perThread);
        assertThat(answers).filteredOn("b"::equals).hasSize(failures);
        assertThat(a.calls()).isEqualTo(threads * perThread);
        assertThat(b.calls()).isEqualTo(failures);
        assertThat(c.calls()).isZero();
    }
}
