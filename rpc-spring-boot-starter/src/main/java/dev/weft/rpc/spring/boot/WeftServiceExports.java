package dev.weft.rpc.spring.boot;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Exports every {@link WeftService} bean when the context starts (after every singleton is
 * created, and after the web server, {@link #PHASE}) and unexports them when it stops, before the
 * web server's graceful shutdown and before any bean is destroyed: each export is unregistered
 * first, then its server tells its consumers (GOAWAY) and drains the calls in flight for up to
 * {@code weft.shutdown-timeout}, all exports together. Thread-safe.
 */
public final class WeftServiceExports implements SmartLifecycle {

    /** Starts after the web server ({@code DEFAULT_PHASE - 2048}), stops before its graceful shutdown ({@code - 1024}). */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

    /** The provider URL key of the drain bound (declared by rpc-protocol-weft). */
    static final String SHUTDOWN_TIMEOUT_KEY = "shutdown-timeout";

    /** Beyond the drain bound: closing the server's connections and threads. */
    static final Duration DRAIN_GRACE = Duration.ofSeconds(2);

    /** Runs each unexport on a daemon thread of its own (a few per shutdown, so no pool is kept). */
    private static final Executor OWN_THREAD = task -> {
        Thread thread = new Thread(task, "weft-unexport");
        thread.setDaemon(true);
        thread.start();
    };

    private static final Logger LOG = LoggerFactory.getLogger(WeftServiceExports.class);

    private final Weft weft;
    private final WeftProperties properties;
    private final ConfigurableListableBeanFactory beanFactory;
    private final UrlKeyCheck keys;
    private final List<Exporter<?>> exporters = new ArrayList<>();
    private volatile List<Exporter<?>> snapshot = List.of();
    private boolean running;

    WeftServiceExports(Weft weft, WeftProperties properties, ConfigurableListableBeanFactory beanFactory) {
        this.weft = Objects.requireNonNull(weft, "weft");
        this.properties = Objects.requireNonNull(properties, "properties");
        this.beanFactory = Objects.requireNonNull(beanFactory, "beanFactory");
        this.keys = new UrlKeyCheck(weft.director().getClassLoader());
    }

    /**
     * Exports every {@link WeftService} bean.
     *
     * @throws IllegalArgumentException naming the bean and the key when a URL, a key or a value is wrong
     *                                  (what was exported before stays owned by the {@code Weft}, which
     *                                  the failed start-up closes)
     */
    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        for (String name : beanFactory.getBeanNamesForAnnotation(WeftService.class)) {
            WeftService annotation = beanFactory.findAnnotationOnBean(name, WeftService.class);
            Object bean = beanFactory.getBean(name);
            Exporter<?> exporter = export(name, bean, Objects.requireNonNull(annotation, "annotation"));
            exporters.add(exporter);
            LOG.info("@WeftService {}: exported at {}", name, exporter.getInvoker().getUrl());
        }
        snapshot = List.copyOf(exporters);
        running = true;
    }

    private Exporter<?> export(String name, Object bean, WeftService annotation) {
        Class<?> target = AopUtils.getTargetClass(bean);
        String what = "@WeftService " + name + " (" + target.getName() + ")";
        Class<?> type = serviceType(what, target, annotation.interfaceClass());
        String written = annotation.url().isEmpty() ? properties.providerUrl() : resolve(annotation.url());
        URL url;
        try {
            url = URL.valueOf(written);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": url: " + e.getMessage(), e);
        }
        Map<String, String> parameters = UrlKeyCheck.parseQuery(what + ": parameters", resolve(annotation.parameters()));
        url = url.addParameters(parameters);
        if (!url.hasParameter(SHUTDOWN_TIMEOUT_KEY)) {
            url = url.addParameter(SHUTDOWN_TIMEOUT_KEY, properties.getShutdownTimeout().toMillis());
        }
        keys.requireKnown(what, url, type);
        try {
            return exportAs(type, bean, url.toFullString());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private <T> Exporter<T> exportAs(Class<T> type, Object bean, String url) {
        return weft.export(type, (T) bean, url);
    }

    private String resolve(String value) {
        String resolved = beanFactory.resolveEmbeddedValue(value);
        return resolved == null ? "" : resolved;
    }

    /** {@code declared}, else the one interface {@code target} implements (Spring's and the JDK's own left out). */
    private static Class<?> serviceType(String what, Class<?> target, Class<?> declared) {
        if (declared != void.class) {
            if (!declared.isInterface() || !declared.isAssignableFrom(target)) {
                throw new IllegalArgumentException(what + ": interfaceClass " + declared.getName()
                        + " (expected: an interface that " + target.getName() + " implements)");
            }
            return declared;
        }
        List<Class<?>> candidates = new ArrayList<>();
        for (Class<?> c = target; c != null && c != Object.class; c = c.getSuperclass()) {
            Arrays.stream(c.getInterfaces())
                    .filter(i -> !i.getName().startsWith("java.") && !i.getName().startsWith("org.springframework."))
                    .filter(i -> !candidates.contains(i))
                    .forEach(candidates::add);
        }
        if (candidates.size() != 1) {
            throw new IllegalArgumentException(what + ": implements " + candidates.stream().map(Class::getName).toList()
                    + " (expected: exactly one service interface, or interfaceClass naming it)");
        }
        return candidates.get(0);
    }

    /**
     * Unexports every export together, each on its own thread, so N exports take one
     * {@code weft.shutdown-timeout}, not N: each is unregistered, then drains its calls in flight.
     * Waits up to the longest drain bound among them (a {@code shutdown-timeout} an annotation sets
     * included) plus {@link #DRAIN_GRACE}; an unexport still running then is logged and left to
     * finish while the context closes ({@code Weft.close()} waits for it within its own bound).
     */
    @Override
    public synchronized void stop() {
        snapshot = List.of();
        List<Exporter<?>> leaving = List.copyOf(exporters);
        exporters.clear();
        running = false;
        if (leaving.isEmpty()) {
            return;
        }
        long boundMillis = 0;
        List<CompletableFuture<Void>> unexports = new ArrayList<>();
        for (Exporter<?> exporter : leaving) {
            boundMillis = Math.max(boundMillis, exporter.getInvoker().getUrl().getParameter(SHUTDOWN_TIMEOUT_KEY,
                    properties.getShutdownTimeout().toMillis()));
            unexports.add(CompletableFuture.runAsync(() -> unexport(exporter), OWN_THREAD));
        }
        boundMillis += DRAIN_GRACE.toMillis();
        try {
            CompletableFuture.allOf(unexports.toArray(CompletableFuture[]::new)).get(boundMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("{} of {} @WeftService export(s) still unexporting after {} ms; the context closes on",
                    unexports.stream().filter(f -> !f.isDone()).count(), unexports.size(), boundMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.warn("unexport failed: {}", e.getCause().toString(), e.getCause());
        }
    }

    private static void unexport(Exporter<?> exporter) {
        try {
            exporter.unexport();
        } catch (RuntimeException e) {
            LOG.warn("unexport {} failed: {}", exporter, e.toString(), e);
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** The current exports (empty before start and after stop). */
    public List<Exporter<?>> exporters() {
        return snapshot;
    }
}
