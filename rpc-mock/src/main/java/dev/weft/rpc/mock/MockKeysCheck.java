package dev.weft.rpc.mock;

import dev.weft.rpc.cluster.AbstractDirectory;
import dev.weft.rpc.cluster.DirectoryListener;
import dev.weft.rpc.cluster.DirectoryState;
import dev.weft.rpc.common.URL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Vetoes every directory state whose consumer URL has mock keys that cannot work for the service
 * interface. {@link MockClusterWrapper} registers it with an {@link AbstractDirectory} before the
 * wrapped cluster joins, so a directory that derives its URL from settings it may leave out (a
 * registry's override rules, see {@link AbstractDirectory#addListener}) leaves out a refused one
 * for a consumer that is starting exactly as for one that is running, and a bad mock in the
 * consumer's own URL still fails the join.
 *
 * <p>Each refusal is logged at WARN with the full error and counted ({@link #refusals()}). The mock
 * keys of the last URL accepted are remembered, so a state that changes other keys costs one map
 * comparison. Thread-safe.
 */
final class MockKeysCheck<T> implements DirectoryListener<T> {

    private static final Logger LOG = LoggerFactory.getLogger(MockKeysCheck.class);

    private final Class<T> type;
    private final MockSupport support;
    private final AtomicLong refusals = new AtomicLong();
    /** The mock keys of the last URL accepted; null before the first. */
    private volatile Map<String, String> accepted;

    MockKeysCheck(Class<T> type, MockSupport support) {
        this.type = Objects.requireNonNull(type, "type");
        this.support = Objects.requireNonNull(support, "support");
    }

    /** @throws MockConfigurationException when the mock keys of {@code next}'s URL cannot work */
    @Override
    public void check(DirectoryState<T> next) {
        URL url = next.url();
        Map<String, String> keys = mockKeys(url);
        if (keys.equals(accepted)) {
            return;
        }
        try {
            MockInvoker.create(type, url, support);
        } catch (MockConfigurationException e) {
            refusals.incrementAndGet();
            LOG.warn("Rejected mock configuration of {} from URL {}; the state is not published:\n{}",
                    type.getName(), url, e.getMessage());
            throw e;
        }
        accepted = keys;
    }

    /** How many states this check refused. */
    long refusals() {
        return refusals.get();
    }

    /** The {@code mock} and {@code <method>.mock} entries of {@code url}. */
    static Map<String, String> mockKeys(URL url) {
        Map<String, String> keys = new TreeMap<>();
        for (Map.Entry<String, String> parameter : url.getParameters().entrySet()) {
            String key = parameter.getKey();
            if (key.equals(MockInvoker.MOCK_KEY) || key.endsWith("." + MockInvoker.MOCK_KEY)) {
                keys.put(key, parameter.getValue());
            }
        }
        return keys;
    }
}
