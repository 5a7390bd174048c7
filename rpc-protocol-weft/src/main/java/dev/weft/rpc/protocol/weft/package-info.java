/** The weft network protocol on Netty. */
package dev.weft.rpc.protocol.weft;
