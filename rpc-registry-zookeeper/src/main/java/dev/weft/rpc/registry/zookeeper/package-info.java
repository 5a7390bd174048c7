/** The zookeeper registry on Apache Curator. */
package dev.weft.rpc.registry.zookeeper;
