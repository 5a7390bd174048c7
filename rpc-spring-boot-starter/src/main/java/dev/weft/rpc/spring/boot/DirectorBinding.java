package dev.weft.rpc.spring.boot;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.spi.ExtensionDirector;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Binds a bean of the application (a {@code MeterRegistry}, an {@code OpenTelemetry}) to the
 * director of every {@link Weft} bean as that {@code Weft} is initialised, before any bean is
 * given it, so the first call is already measured or traced. The {@code Weft} bean the starter
 * builds and one the application defines itself are both bound. Nothing is bound when the
 * context has no such bean, or more than one and none primary.
 *
 * <p>The source is looked up lazily, when a {@code Weft} is initialised, so this post-processor
 * creates no bean early. Thread-safe (Spring calls it while creating beans).
 *
 * @param <T> the type of the bean bound
 */
final class DirectorBinding<T> implements BeanPostProcessor {

    private final ObjectProvider<T> source;
    private final BiConsumer<T, ExtensionDirector> bind;

    /**
     * @param source the bean bound, if the context has a unique (or primary) one
     * @param bind   binds the bean to a {@code Weft}'s director
     */
    DirectorBinding(ObjectProvider<T> source, BiConsumer<T, ExtensionDirector> bind) {
        this.source = Objects.requireNonNull(source, "source");
        this.bind = Objects.requireNonNull(bind, "bind");
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof Weft weft) {
            source.ifUnique(value -> bind.accept(value, weft.director()));
        }
        return bean;
    }
}
