package dev.weft.rpc.registry;

import dev.weft.rpc.cluster.Router;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.filter.CallContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The routing of one {@link RegistryDirectory} state: tag routing, then the service's condition
 * rules ({@link ConditionRule}), applied to a state's candidates once per method and route key.
 * Immutable and thread-safe; equal when its consumer URL and rules are.
 *
 * <p><b>Tags.</b> A provider's tag is its URL key {@value #TAG_KEY} (from its export URL or an
 * override rule on its address). A call's tag is its attachment {@value #TAG_KEY}, or else the
 * caller's {@link CallContext} one; its route key is the tag, marked when the attachment
 * {@value #TAG_FORCE_KEY} is {@code true}. A call tagged {@code T} goes to the providers tagged
 * {@code T}; when there are none, to the untagged ones, unless forced (then it fails with "no
 * provider"). An untagged call goes only to untagged providers. The consumer's own URL never
 * gives a call a tag.
 */
final class RuleRouter<T> implements Router<T> {

    /** Provider key and call attachment: the provider's tag, the call's tag. */
    static final String TAG_KEY = "tag";
    /** Call attachment: {@code true} fails a tagged call when no provider has its tag (default false). */
    static final String TAG_FORCE_KEY = "tag.force";

    private final URL consumer;
    private final List<ConditionRule> rules;
    private final CallContext context;

    /**
     * @param consumer the consumer URL (with its override rules) that {@code when} conditions read
     * @param rules    the enabled rules, in the order they apply ({@link ConditionRule#ORDER})
     * @param context  where a call's tag is when its invocation does not carry it
     */
    RuleRouter(URL consumer, List<ConditionRule> rules, CallContext context) {
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.rules = List.copyOf(rules);
        this.context = Objects.requireNonNull(context, "context");
    }

    @Override
    public String routeKey(Invocation invocation) {
        String tag = invocation.getAttachment(TAG_KEY);
        String force = invocation.getAttachment(TAG_FORCE_KEY);
        if (tag == null) {
            tag = context.get(TAG_KEY);
            force = context.get(TAG_FORCE_KEY);
        }
        if (tag == null || tag.isEmpty()) {
            return "";
        }
        return ("true".equalsIgnoreCase(force) ? "!" : "=") + tag;
    }

    @Override
    public Route<T> route(List<Invoker<T>> candidates, String method, String routeKey) {
        List<Invoker<T>> list = byTag(candidates, routeKey);
        if (list.isEmpty() && !candidates.isEmpty()) {
            return new Route<>(list, routeKey.isEmpty()
                    ? "every provider is tagged, and a call without a tag goes only to untagged providers"
                    : routeKey.startsWith("!")
                    ? "no provider has tag " + routeKey.substring(1) + " and the call says " + TAG_FORCE_KEY + "=true"
                    : "no provider has tag " + routeKey.substring(1) + " and none is untagged to fall back to");
        }
        for (ConditionRule rule : rules) {
            if (!rule.routes(method, consumer)) {
                continue;
            }
            List<Invoker<T>> selected = new ArrayList<>(list.size());
            for (Invoker<T> invoker : list) {
                if (rule.selects(invoker.getUrl())) {
                    selected.add(invoker);
                }
            }
            if (!selected.isEmpty()) {
                list = selected;
            } else if (rule.isForce()) {
                return new Route<>(List.of(), rule.describe() + " leaves no provider");
            }
        }
        return new Route<>(list, null);
    }

    /** The candidates of the tag of {@code routeKey} (see the class comment); empty when a forced tag has none. */
    private static <T> List<Invoker<T>> byTag(List<Invoker<T>> candidates, String routeKey) {
        String tag = routeKey.isEmpty() ? "" : routeKey.substring(1);
        List<Invoker<T>> tagged = new ArrayList<>();
        List<Invoker<T>> untagged = new ArrayList<>(candidates.size());
        for (Invoker<T> invoker : candidates) {
            String own = invoker.getUrl().getParameter(TAG_KEY, "");
            if (own.isEmpty()) {
                untagged.add(invoker);
            } else if (!tag.isEmpty() && own.equals(tag)) {
                tagged.add(invoker);
            }
        }
        if (tag.isEmpty()) {
            return untagged.size() == candidates.size() ? candidates : untagged;
        }
        if (!tagged.isEmpty()) {
            return tagged;
        }
        return routeKey.startsWith("!") ? List.of() : untagged;
    }

    /** The rules, in the order they apply. */
    List<ConditionRule> rules() {
        return rules;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RuleRouter<?> other && consumer.equals(other.consumer) && rules.equals(other.rules)
                && context == other.context;
    }

    @Override
    public int hashCode() {
        return Objects.hash(consumer, rules);
    }

    @Override
    public String toString() {
        return "RuleRouter" + rules;
    }
}
