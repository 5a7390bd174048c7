package dev.weft.rpc.mock;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

/**
 * Turns a mock implementation into an {@link Invoker}: in production
 * {@code ProxyFactory::getInvoker}, so mock classes are called through the same invoker path as
 * local services.
 */
@FunctionalInterface
interface ImplementationInvokers {

    <T> Invoker<T> invokerFor(T implementation, Class<T> type, URL url);
}
