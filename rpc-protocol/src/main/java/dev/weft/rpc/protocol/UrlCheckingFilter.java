package dev.weft.rpc.protocol;

import dev.weft.rpc.common.URL;

/**
 * A {@link Filter} that reads URL keys and checks their values when a chain is built, so a bad
 * value ({@code actives=-1}) fails the export or refer instead of the hundredth call.
 */
public interface UrlCheckingFilter extends Filter {

    /**
     * Checks the keys this filter reads on {@code url}, the URL of the invoker the chain is built
     * around (method-level forms included). Called for every chain of the filter's side, whether
     * or not the URL selects the filter (a value that switches it off must still be valid), and for
     * override rules; a URL without the keys must pass.
     *
     * @throws IllegalArgumentException naming the key, the value and the rule, when a value is bad
     */
    void checkUrl(URL url);
}
