package dev.weft.rpc.benchmarks;

import dev.weft.rpc.spi.ExtensionLoader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.dubbo.rpc.model.ApplicationModel;

/**
 * Run by the build against {@code target/benchmarks.jar} (never JMH): checks that shading kept
 * every Weft and Dubbo extension descriptor (appended, not overwritten) and that both pipelines
 * answer, in this JVM and in the fresh JVMs of the cold-start mains. Exits non-zero naming each
 * missing extension or failing main; prints nothing when all is well, so the install step shows
 * only Maven's own output.
 */
public final class ShadedJarCheck {
    private ShadedJarCheck() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        List<String> problems = new ArrayList<>();
        expect(problems, "Weft LoadBalance",
                ExtensionLoader.getExtensionLoader(dev.weft.rpc.loadbalance.LoadBalance.class).getSupportedExtensions(),
                Set.of("random", "roundrobin", "leastactive", "shortestresponse", "consistenthash", "p2c"));
        expect(problems, "Weft Cluster",
                ExtensionLoader.getExtensionLoader(dev.weft.rpc.cluster.Cluster.class).getSupportedExtensions(),
                Set.of("failover", "failfast", "failsafe", "failback", "forking", "broadcast", "available"));
        expect(problems, "Weft ProxyFactory",
                ExtensionLoader.getExtensionLoader(dev.weft.rpc.proxy.ProxyFactory.class).getSupportedExtensions(),
                Set.of("javassist", "jdk"));
        expect(problems, "Weft WeftGreeting",
                ExtensionLoader.getExtensionLoader(WeftGreeting.class).getSupportedExtensions(), Set.of("hello", "hi"));
        ApplicationModel dubbo = ApplicationModel.defaultModel();
        expect(problems, "Dubbo LoadBalance",
                dubbo.getExtensionLoader(org.apache.dubbo.rpc.cluster.LoadBalance.class).getSupportedExtensions(),
                Set.of("random", "roundrobin", "leastactive", "shortestresponse", "consistenthash"));
        expect(problems, "Dubbo Cluster",
                dubbo.getExtensionLoader(org.apache.dubbo.rpc.cluster.Cluster.class).getSupportedExtensions(),
                Set.of("failover", "failfast"));
        // Wrappers are not named extensions: look for their lines in the merged descriptors.
        expectLine(problems, "META-INF/rpc/dev.weft.rpc.cluster.Cluster", "dev.weft.rpc.mock.MockClusterWrapper");
        expectLine(problems, "META-INF/dubbo/internal/org.apache.dubbo.rpc.cluster.Cluster",
                "org.apache.dubbo.rpc.cluster.support.wrapper.MockClusterWrapper");
        expect(problems, "Dubbo ProxyFactory",
                dubbo.getExtensionLoader(org.apache.dubbo.rpc.ProxyFactory.class).getSupportedExtensions(),
                Set.of("javassist", "jdk"));
        expect(problems, "Dubbo DubboGreeting",
                dubbo.getExtensionLoader(DubboGreeting.class).getSupportedExtensions(), Set.of("hello", "hi"));
        if (problems.isEmpty()) {
            Checks.greeter(WeftPipeline.build(10));
            Checks.greeter(DubboPipeline.build(10));
            ColdStart.runOnce(WeftColdStart.class);
            ColdStart.runOnce(DubboColdStart.class);
            System.exit(0);
        }
        problems.forEach(System.err::println);
        System.exit(1);
    }

    private static void expectLine(List<String> problems, String resource, String className) throws IOException {
        StringBuilder all = new StringBuilder();
        Enumeration<java.net.URL> urls = ShadedJarCheck.class.getClassLoader().getResources(resource);
        while (urls.hasMoreElements()) {
            try (InputStream in = urls.nextElement().openStream()) {
                all.append(new String(in.readAllBytes(), StandardCharsets.UTF_8)).append('\n');
            }
        }
        if (all.indexOf(className) < 0) {
            problems.add(resource + ": no line for " + className + " (expected: descriptors appended when shading)");
        }
    }

    private static void expect(List<String> problems, String what, Set<String> actual, Set<String> expected) {
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(actual);
        if (!missing.isEmpty()) {
            problems.add(what + " extensions: " + new TreeSet<>(actual) + " (expected to include: " + missing + ")");
        }
    }
}
