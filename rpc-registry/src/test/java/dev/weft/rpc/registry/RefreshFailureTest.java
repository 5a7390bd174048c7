package dev.weft.rpc.registry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A refresh that fails in a way the directory did not foresee leaves it working for the next change. */
class RefreshFailureTest {

    private final Fixture fixture = new Fixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void providerWhoseReferThrowsAnError_isLeftOut_andLaterChangesStillApply() {
        fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();

        fixture.provider("10.0.0.2:2", "unloadable=true");
        assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.1:1");
        assertThat(directory.getProblemCount()).isEqualTo(1);

        fixture.provider("10.0.0.3:3", "");
        assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.1:1", "10.0.0.3:3");
        assertThat(fixture.protocol.live()).isEqualTo(2);
        directory.destroy();
        assertThat(fixture.protocol.live()).isZero();
    }

    @Test
    void refreshFailingWithAnError_doesNotStopLaterRefreshes() {
        List<Integer> runs = new java.util.ArrayList<>();
        CoalescingRefresher refresher = new CoalescingRefresher(Runnable::run, () -> {
            runs.add(runs.size());
            if (runs.size() == 1) {
                throw new StackOverflowError("first run");
            }
        });
        try {
            refresher.request();
        } catch (StackOverflowError expected) {
            // the executor's thread sees it, as it would see any error
        }
        refresher.request();
        assertThat(runs).containsExactly(0, 1);
    }
}
