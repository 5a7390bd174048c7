package dev.weft.rpc.spring.boot;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.common.URL;
import org.springframework.beans.BeansException;
import org.springframework.beans.PropertyValues;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.InstantiationAwareBeanPostProcessor;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Injects {@link WeftReference} fields. The {@code Weft} bean is looked up at the first injection
 * (so this post-processor does not create it early), and each bean given a reference is made a
 * dependent of it: Spring destroys the bean before the {@code Weft}, whose close releases the
 * references. Fields with equal type and parameters share one reference. Thread-safe.
 */
final class WeftReferenceInjector implements InstantiationAwareBeanPostProcessor, BeanFactoryAware {

    /** The consumer key naming direct provider URLs (declared by rpc-bootstrap). */
    static final String URL_KEY = "url";

    private ConfigurableListableBeanFactory beanFactory;
    private final Map<String, Object> references = new ConcurrentHashMap<>();
    /** Read at the first injection, from the class loader of the {@code Weft}'s director. */
    private volatile UrlKeyCheck keys;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
    }

    @Override
    public PropertyValues postProcessProperties(PropertyValues values, Object bean, String beanName) throws BeansException {
        Class<?> type = ClassUtils.getUserClass(bean);
        ReflectionUtils.doWithFields(type, field -> inject(bean, beanName, field),
                field -> field.isAnnotationPresent(WeftReference.class));
        return values;
    }

    private void inject(Object bean, String beanName, Field field) {
        String what = "@WeftReference " + field.getDeclaringClass().getSimpleName() + "." + field.getName()
                + " of bean " + beanName;
        try {
            if (Modifier.isStatic(field.getModifiers())) {
                throw new IllegalArgumentException(what + ": a static field (expected: an instance field)");
            }
            Object reference = reference(what, field);
            ReflectionUtils.makeAccessible(field);
            ReflectionUtils.setField(field, bean, reference);
        } catch (RuntimeException e) {
            throw new BeanCreationException(beanName, e.getMessage(), e);
        }
        for (String weftName : beanFactory.getBeanNamesForType(Weft.class)) {
            beanFactory.registerDependentBean(weftName, beanName);
        }
    }

    private Object reference(String what, Field field) {
        Class<?> type = field.getType();
        if (!type.isInterface()) {
            throw new IllegalArgumentException(what + ": type " + type.getName() + " (expected: a service interface)");
        }
        WeftReference annotation = field.getAnnotation(WeftReference.class);
        WeftProperties properties = beanFactory.getBean(WeftProperties.class);
        Map<String, String> parameters = new TreeMap<>(
                UrlKeyCheck.parseQuery("weft.consumer.parameters", properties.getConsumer().getParameters()));
        parameters.putAll(UrlKeyCheck.parseQuery(what + ": parameters", resolve(annotation.parameters())));
        String url = resolve(annotation.url());
        if (!url.isEmpty()) {
            parameters.put(URL_KEY, url);
        }
        Weft weft = beanFactory.getBean(Weft.class);
        URL consumerUrl = URL.valueOf("consumer://127.0.0.1/" + type.getName()).addParameters(parameters);
        keys(weft).requireKnown(what, consumerUrl, type);
        return references.computeIfAbsent(type.getName() + parameters, key -> {
            try {
                return weft.refer(type, parameters);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
            }
        });
    }

    private UrlKeyCheck keys(Weft weft) {
        UrlKeyCheck current = keys;
        if (current == null) {
            current = new UrlKeyCheck(weft.director().getClassLoader());
            keys = current;
        }
        return current;
    }

    private String resolve(String value) {
        String resolved = beanFactory.resolveEmbeddedValue(value);
        return resolved == null ? "" : resolved;
    }
}
