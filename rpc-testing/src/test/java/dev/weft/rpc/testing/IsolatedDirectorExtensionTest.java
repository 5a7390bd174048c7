package dev.weft.rpc.testing;

import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** Runs fixture test classes through the JUnit launcher and checks what the extension gave them. */
class IsolatedDirectorExtensionTest {

    /** What the fixtures saw; written by fixture tests run by {@link #run}, one run at a time. */
    private static final List<ExtensionDirector> DIRECTORS = Collections.synchronizedList(new ArrayList<>());
    private static final List<LoudShout> SHOUTS = Collections.synchronizedList(new ArrayList<>());
    private static final List<Long> READINGS = Collections.synchronizedList(new ArrayList<>());

    @ExtendWith(IsolatedDirectorExtension.class)
    static class Fixture {

        private ExtensionDirector beforeDirector;
        private FakeTicker beforeTicker;

        @BeforeEach
        void setUp(ExtensionDirector director, FakeTicker ticker) {
            beforeDirector = director;
            beforeTicker = ticker;
        }

        @Test
        void first(ExtensionDirector director, FakeTicker ticker) {
            assertThat(director).isSameAs(beforeDirector);
            assertThat(ticker).isSameAs(beforeTicker);
            assertThat(director.isClosed()).isFalse();
            assertThat(director.getClassLoader()).isSameAs(Fixture.class.getClassLoader());
            LoudShout loud = (LoudShout) director.getExtensionLoader(Shout.class).getExtension("loud");
            assertThat(loud.shout("hi")).isEqualTo("HI");
            SHOUTS.add(loud);
            DIRECTORS.add(director);
        }

        @Test
        void second(ExtensionDirector director, FakeTicker ticker) {
            assertThat(director).isSameAs(beforeDirector);
            assertThat(ticker.read()).isZero();
            ticker.advance(Duration.ofSeconds(1));
            SHOUTS.add((LoudShout) director.getExtensionLoader(Shout.class).getDefaultExtension());
            DIRECTORS.add(director);
        }

        @AfterEach
        void tearDown(ExtensionDirector director) {
            assertThat(director).isSameAs(beforeDirector);
            assertThat(director.isClosed()).isFalse();
        }
    }

    @ExtendWith(IsolatedDirectorExtension.class)
    static class TickerFixture {

        @Test
        void tickerFirst(FakeTicker ticker, ExtensionDirector director) {
            assertThat(director.getTicker()).isSameAs(ticker);
            ticker.advance(Duration.ofMillis(1500));
            READINGS.add(director.getTicker().read());
        }

        @Test
        void directorFirst(ExtensionDirector director, FakeTicker ticker) {
            assertThat(director.getTicker()).isSameAs(ticker);
            READINGS.add(director.getTicker().read());
            ticker.set(42);
            READINGS.add(director.getTicker().read());
        }

        @Test
        void directorOnly(ExtensionDirector director) {
            assertThat(director.getTicker()).isInstanceOf(FakeTicker.class);
            READINGS.add(director.getTicker().read());
        }
    }

    @ExtendWith(IsolatedDirectorExtension.class)
    static class ConstructorFixture {

        ConstructorFixture(ExtensionDirector director) {
            DIRECTORS.add(director);
        }

        @Test
        void neverRuns() {
        }
    }

    @ExtendWith(IsolatedDirectorExtension.class)
    static class FailingFixture {

        @Test
        void fails(ExtensionDirector director) {
            DIRECTORS.add(director);
            throw new IllegalStateException("the test failed");
        }
    }

    @BeforeEach
    void clear() {
        DIRECTORS.clear();
        SHOUTS.clear();
        READINGS.clear();
    }

    @Test
    void eachTest_getsItsOwnDirector_closedAfterIt_withItsExtensions() {
        TestExecutionSummary summary = run(Fixture.class);

        assertThat(summary.getTestsSucceededCount()).as(failures(summary)).isEqualTo(2);
        assertThat(DIRECTORS).hasSize(2);
        Set<ExtensionDirector> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        distinct.addAll(DIRECTORS);
        assertThat(distinct).hasSize(2).doesNotContain(ExtensionDirector.getDefault());
        assertThat(DIRECTORS).allSatisfy(director -> assertThat(director.isClosed()).isTrue());
        assertThat(SHOUTS).hasSize(2).allSatisfy(shout -> assertThat(shout.isClosed()).isTrue());
        assertThat(SHOUTS.get(0)).isNotSameAs(SHOUTS.get(1));
    }

    @Test
    void director_runsOnTheTestsFakeTicker_whicheverParameterComesFirst_freshPerTest() {
        TestExecutionSummary summary = run(TickerFixture.class);

        assertThat(summary.getTestsSucceededCount()).as(failures(summary)).isEqualTo(3);
        // each test starts at 0 ns on its own ticker; what the test sets is what the director reads
        assertThat(READINGS).containsExactlyInAnyOrder(1_500_000_000L, 0L, 42L, 0L);
    }

    @Test
    void aFailingTest_stillClosesItsDirector() {
        TestExecutionSummary summary = run(FailingFixture.class);

        assertThat(summary.getTestsFailedCount()).isEqualTo(1);
        assertThat(summary.getFailures().get(0).getException()).hasMessage("the test failed");
        assertThat(DIRECTORS).singleElement().satisfies(director -> assertThat(director.isClosed()).isTrue());
    }

    @Test
    void constructorInjection_isRefused_withTheRule() {
        TestExecutionSummary summary = run(ConstructorFixture.class);

        assertThat(summary.getTestsFailedCount()).isEqualTo(1);
        assertThat(summary.getFailures().get(0).getException())
                .hasMessageContaining("parameter: ExtensionDirector of ")
                .hasMessageContaining("(expected: a parameter of a @Test, @BeforeEach or @AfterEach method; one director lives for one test)");
        assertThat(DIRECTORS).isEmpty();
    }

    private static TestExecutionSummary run(Class<?> fixture) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectClass(fixture)).build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request, listener);
        return listener.getSummary();
    }

    private static String failures(TestExecutionSummary summary) {
        StringWriter out = new StringWriter();
        summary.printFailuresTo(new PrintWriter(out), 20);
        return out.toString();
    }
}
