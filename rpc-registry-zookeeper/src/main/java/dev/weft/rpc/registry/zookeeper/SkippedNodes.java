package dev.weft.rpc.registry.zookeeper;

import java.util.Set;

/**
 * The children of one folder read that are not URLs (written by another tool: locks, garbage, a
 * Dubbo value with a raw {@code %}). Each node path counts once per registry, in the shared
 * {@code reported} set behind {@code health().skippedNodeNames()}; the new ones of a read are
 * reported in one warning naming the first node and the count, rate-limited per folder, so a
 * folder full of foreign nodes gives one line, not one per node.
 *
 * <p>One per read, on one thread; {@code reported} is thread-safe.
 */
final class SkippedNodes {

    private final String folder;
    private final Set<String> reported;
    private int fresh;
    private String first;
    private String firstReason;

    SkippedNodes(String folder, Set<String> reported) {
        this.folder = folder;
        this.reported = reported;
    }

    /** Notes that child {@code name} did not parse, for {@code reason}. */
    void add(String name, IllegalArgumentException reason) {
        if (reported.add(folder + "/" + name)) {
            fresh++;
            if (first == null) {
                first = name;
                firstReason = reason.getMessage();
            }
        }
    }

    /** Logs the nodes not reported before, if any, in one line. */
    void report(RateLimitedLog failures) {
        if (fresh > 0) {
            failures.warn("skip " + folder, "Skipping " + fresh + " node(s) under " + folder
                    + " that are not URLs, such as " + folder + "/" + first + ": " + firstReason, null);
        }
    }
}
