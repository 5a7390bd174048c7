package dev.weft.rpc.testing;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CapturingLoggerTest {

    private final CapturingLogger logger = new CapturingLogger();

    @Test
    void keepsEachLine_withItsLevel_andTheMessageFormatted() {
        logger.info("connected to {} after {} attempt(s)", "127.0.0.1:20880", 3);
        logger.warn("closing {}", "/127.0.0.1:50412", new IllegalStateException("boom"));
        logger.debug("plain");
        logger.error("failed", new IllegalArgumentException("bad"));

        assertThat(logger.lines()).containsExactly(
                "INFO connected to 127.0.0.1:20880 after 3 attempt(s)",
                "WARN closing /127.0.0.1:50412",
                "DEBUG plain",
                "ERROR failed");
        assertThat(logger.throwables()).isEqualTo(2);
        assertThat(logger.isTraceEnabled()).isTrue();
        assertThat(logger.getName()).isEqualTo("capturing");
    }

    @Test
    void lines_isASnapshotTheTestCannotChange() {
        logger.warn("one");
        List<String> before = logger.lines();
        logger.warn("two");

        assertThat(before).containsExactly("WARN one");
        assertThatThrownBy(() -> before.add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void threadsLoggingAtOnce_loseNoLine() throws Exception {
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 500; i++) {
                    logger.warn("thread {} line {}", id, i);
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        assertThat(logger.lines()).hasSize(8 * 500).doesNotHaveDuplicates();
    }
}
