package dev.weft.rpc.proxy.isolated;

import dev.weft.rpc.proxy.SampleServiceImpl;

/** The sample implementation, implementing the freshly loaded {@link FreshSampleService}. */
public class FreshSampleServiceImpl extends SampleServiceImpl implements FreshSampleService {
}
