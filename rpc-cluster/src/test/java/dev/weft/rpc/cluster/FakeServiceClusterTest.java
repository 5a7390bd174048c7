package dev.weft.rpc.cluster;

import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.CallLog;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.Invocations;
import org.junit.jupiter.api.AfterEach;

import java.util.List;

/**
 * What the cluster tests that go through a director's {@code Cluster} extensions share: a fresh
 * director closed after each test, fake providers logging to one {@link CallLog}, and consumer
 * URLs and directories of {@link FakeService}.
 */
abstract class FakeServiceClusterTest {

    static final String SERVICE = FakeService.class.getName();
    static final String CONSUMER = "consumer://10.0.0.100/" + SERVICE;

    final ExtensionDirector director = new ExtensionDirector(FakeServiceClusterTest.class.getClassLoader());
    final CallLog log = new CallLog();
    final RpcInvocation call = Invocations.of(FakeService.class, "call", "x");

    @AfterEach
    void closeDirector() {
        director.close();
    }

    FakeProvider<FakeService> provider(String name) {
        return FakeProvider.named(name).loggingTo(log);
    }

    static URL consumer(String query) {
        return URL.valueOf(CONSUMER + "?" + query);
    }

    static DynamicDirectory<FakeService> directory(String query, List<FakeProvider<FakeService>> providers) {
        DynamicDirectory<FakeService> directory = new DynamicDirectory<>(FakeService.class, consumer(query));
        directory.setInvokers(List.copyOf(providers));
        return directory;
    }
}
