package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;

import java.util.List;

/**
 * The URLs of one category folder as one read found them, in node-name order, with the read's
 * sequence number (later reads of the same folder have larger numbers). Immutable.
 */
record CategorySnapshot(String category, long sequence, List<URL> urls) {

    CategorySnapshot {
        urls = List.copyOf(urls);
    }
}
