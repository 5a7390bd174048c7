package dev.weft.rpc.cluster;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * While no balancer in the JVM reads statistics, the cluster looks nothing up and records
 * nothing; the first balancer that reads them turns recording on. Run in a fresh class loader
 * because that state is JVM-wide (per class loader) and other tests have turned it on.
 */
class FreshStatisticsTest {

    @Test
    void freshClassLoader_randomRecordsNothing_leastactiveTurnsRecordingOn() throws Exception {
        List<java.net.URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(new File(entry).toURI().toURL());
        }
        try (URLClassLoader fresh = new URLClassLoader("fresh-statistics", urls.toArray(new java.net.URL[0]),
                ClassLoader.getPlatformClassLoader())) {
            Class<?> scenario = Class.forName(FreshStatisticsScenario.class.getName(), true, fresh);
            assertThat(scenario.getClassLoader()).isSameAs(fresh);
            @SuppressWarnings("unchecked")
            Supplier<Map<String, Object>> run = (Supplier<Map<String, Object>>) scenario.getDeclaredConstructor().newInstance();

            Map<String, Object> seen = run.get();

            assertThat(seen).containsEntry("anyTrackingAtStart", false)
                    .containsEntry("callsUnderRandom", 20)
                    .containsEntry("anyTrackingAfterRandom", false)
                    .containsEntry("anyTrackingUnderLeastActive", true)
                    .containsEntry("inFlightDuringTheCall", 1);
        }
    }
}
