package dev.weft.rpc.protocol.weft;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;

/**
 * The buffer allocator of every channel this protocol opens or accepts: Netty's unpooled one
 * (direct memory freed on release, leak detection as configured for Netty).
 *
 * <p>Why not Netty's default pooled allocator: in Netty 4.2 both pooled allocators set up JDK
 * Flight Recorder event support when they hand out their first buffer. That set-up is paid
 * inside the first call, once on the consumer and once on the provider, and dominated the time
 * from process start to the first answer. A weft frame lives for one read or one write, so
 * pooling saves little here; throughput with many concurrent callers measured the same
 * (docs/benchmarks.md, the network benchmark).
 */
final class ChannelAllocator {

    /** Shared by all channels; thread-safe. */
    static final ByteBufAllocator INSTANCE = UnpooledByteBufAllocator.DEFAULT;

    private ChannelAllocator() {
    }
}
