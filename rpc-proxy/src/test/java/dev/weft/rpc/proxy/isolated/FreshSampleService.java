package dev.weft.rpc.proxy.isolated;

import dev.weft.rpc.proxy.SampleService;

/**
 * {@link SampleService} under a new name in each throwaway class loader: proxies and invokers of it
 * are generated afresh by every test that loads it (generated classes are cached per interface).
 */
public interface FreshSampleService extends SampleService {
}
