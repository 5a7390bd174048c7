/** The published test kit: scripted fake providers, a fake ticker, helpers for extension authors' tests. */
package dev.weft.rpc.testing;
