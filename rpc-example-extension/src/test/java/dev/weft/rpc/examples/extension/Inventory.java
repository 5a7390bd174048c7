package dev.weft.rpc.examples.extension;

/** The service the example's strategy and filter tests call. */
public interface Inventory {

    int reserve(String sku, int quantity);

    int stock(String sku);
}
