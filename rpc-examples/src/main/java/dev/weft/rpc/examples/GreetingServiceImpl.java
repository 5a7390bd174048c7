package dev.weft.rpc.examples;

import java.util.Objects;

/** A provider's implementation: echoes the name with the provider's own. Immutable, thread-safe. */
final class GreetingServiceImpl implements GreetingService {

    static final char SEPARATOR = '@';

    private final String providerName;

    GreetingServiceImpl(String providerName) {
        this.providerName = Objects.requireNonNull(providerName, "providerName");
    }

    @Override
    public String greet(String name) {
        return name + SEPARATOR + providerName;
    }

    /** Whether {@code answer} is a provider's answer to {@code name} (as opposed to a mock's). */
    static boolean isProviderAnswer(String name, Object answer) {
        return answer instanceof String text && text.length() > name.length()
                && text.startsWith(name) && text.charAt(name.length()) == SEPARATOR;
    }
}
