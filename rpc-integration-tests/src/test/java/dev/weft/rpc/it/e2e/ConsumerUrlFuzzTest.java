package dev.weft.rpc.it.e2e;

import dev.weft.rpc.cluster.StaticDirectory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.testing.FakeProvider;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random consumer and provider URLs (keys and values from the docs/url-keys.md reference table,
 * method-level variants, plus garbage) through the whole stack: joining, proxying and calling
 * only ever give a result or a documented {@link RpcException}, {@link IllegalArgumentException}
 * or {@link IllegalStateException} with a non-empty message.
 */
class ConsumerUrlFuzzTest {

    private static final int CASES = 2_000;
    private static final int CASES_PER_DIRECTOR = 250;

    private static final Map<String, List<String>> CONSUMER_KEYS = new LinkedHashMap<>();
    private static final Map<String, List<String>> PROVIDER_KEYS = new LinkedHashMap<>();
    /** Keys that may also be given per method ({@code greet.key}). */
    private static final List<String> METHOD_KEYS =
            List.of("loadbalance", "retries", "timeout", "forks", "sticky", "hash.arguments", "hash.nodes", "mock");

    static {
        CONSUMER_KEYS.put("cluster", List.of("failover", "failfast", "failsafe", "failback", "forking", "broadcast",
                "available", "", "failovr", "FAILOVER", "fail over", "mock", "ç", "null"));
        CONSUMER_KEYS.put("loadbalance", List.of("random", "roundrobin", "leastactive", "shortestresponse",
                "consistenthash", "p2c", "localfirst", "", "randon", "RANDOM", "x.y", "%"));
        CONSUMER_KEYS.put("retries", List.of("-5", "-1", "0", "1", "2", "3", "10", "2147483648", "abc", "", "1.5", " 2"));
        CONSUMER_KEYS.put("timeout", List.of("1", "10", "100", "1000", "0", "-1", "abc", "", "99999999999"));
        CONSUMER_KEYS.put("forks", List.of("-1", "0", "1", "2", "3", "10", "x", ""));
        CONSUMER_KEYS.put("failbacktasks", List.of("0", "1", "5", "100", "-1", "x", ""));
        CONSUMER_KEYS.put("failback.period", List.of("50", "100", "1000", "0", "-1", "x", ""));
        CONSUMER_KEYS.put("broadcast.fail.percent", List.of("0", "50", "100", "150", "-1", "x", ""));
        CONSUMER_KEYS.put("sticky", List.of("true", "false", "TRUE", "yes", ""));
        CONSUMER_KEYS.put("cluster.availablecheck", List.of("true", "false", "False", "1", ""));
        CONSUMER_KEYS.put("hash.arguments", List.of("0", "1", "0,1", "5", "-1", "a", "", "0,,1"));
        CONSUMER_KEYS.put("hash.nodes", List.of("1", "160", "0", "-1", "x", "5000", ""));
        CONSUMER_KEYS.put("mock", List.of("", "false", "true", "force", "fail", "force:return null", "fail:return empty",
                "return empty", "force:return 'x'", "fail:throw", "force:throw", "throw java.lang.IllegalStateException",
                "force:return {", "return [1,2]", "garbage words", "fail:return 123", "force:throw java.lang.String",
                "dev.weft.rpc.it.e2e.NoSuchMock", "force:return \"unterminated", "fail:return {\"@class\":\"x\"}"));
        CONSUMER_KEYS.put("proxy", List.of("javassist", "jdk", "", "cglib", "JDK"));
        CONSUMER_KEYS.put("localfirst.zone", List.of("eu", "us", "", "EU"));
        PROVIDER_KEYS.put("weight", List.of("0", "1", "5", "100", "-1", "x", ""));
        PROVIDER_KEYS.put("warmup", List.of("0", "1000", "600000", "-1", "x", ""));
        PROVIDER_KEYS.put("timestamp", List.of("0", "-1", "x", "1700000000000", "99999999999999", ""));
        PROVIDER_KEYS.put("zone", List.of("eu", "us", ""));
    }

    private final Random random = new Random(20_261_129L);

    @Test
    void randomUrls_throughTheWholeStack_giveAResultOrADocumentedException() {
        List<String> undocumented = new ArrayList<>();
        int results = 0;
        int documentedFailures = 0;
        WeftStack stack = null;
        try {
            for (int i = 0; i < CASES; i++) {
                if (i % CASES_PER_DIRECTOR == 0) {
                    if (stack != null) {
                        stack.close();
                    }
                    stack = new WeftStack();
                }
                URL consumer = WeftStack.consumerUrl("").addParameters(randomParameters(CONSUMER_KEYS, true));
                List<FakeProvider<Greeter>> providers = stack.providers(randomProviderSpecs());
                for (FakeProvider<Greeter> provider : providers) {
                    stack.setDown(provider, random.nextInt(4) == 0);
                }
                String where = "case " + i + ": consumer " + consumer.toFullString() + ", providers " + describe(providers);
                try {
                    Greeter greeter = stack.consumer(new StaticDirectory<Greeter>(Greeter.class, consumer, list(providers)));
                    for (int call = 0; call < 3; call++) {
                        Outcome outcome = call(() -> greeter.greet("n" + random.nextInt(3)));
                        results += outcome == Outcome.RESULT ? 1 : 0;
                        documentedFailures += outcome == Outcome.DOCUMENTED ? 1 : 0;
                    }
                    Outcome outcome = call(() -> greeter.add(1, 2));
                    results += outcome == Outcome.RESULT ? 1 : 0;
                    documentedFailures += outcome == Outcome.DOCUMENTED ? 1 : 0;
                } catch (RuntimeException | Error e) {
                    if (isDocumented(e)) {
                        documentedFailures++;
                    } else {
                        undocumented.add(where + " -> " + e);
                    }
                } catch (Undocumented e) {
                    undocumented.add(where + " -> " + e.getCause());
                }
                if (undocumented.size() >= 20) {
                    break;
                }
            }
        } finally {
            if (stack != null) {
                stack.close();
            }
        }
        assertThat(undocumented).isEmpty();
        // The generator really explored both sides (with this seed: about 2,200 results and 3,500 documented failures).
        assertThat(results).isGreaterThan(CASES);
        assertThat(documentedFailures).isGreaterThan(CASES / 2);
    }

    private enum Outcome { RESULT, DOCUMENTED }

    /** Thrown (checked, so it cannot be confused with the stack's own exceptions) for a bad outcome. */
    private static final class Undocumented extends Exception {
        private static final long serialVersionUID = 1L;

        Undocumented(Throwable cause) {
            super(cause);
        }
    }

    private static Outcome call(Runnable call) throws Undocumented {
        try {
            call.run();
            return Outcome.RESULT;
        } catch (RuntimeException | Error e) {
            if (isDocumented(e)) {
                return Outcome.DOCUMENTED;
            }
            throw new Undocumented(e);
        }
    }

    private static boolean isDocumented(Throwable e) {
        boolean documentedType = e instanceof RpcException || e instanceof IllegalArgumentException
                || e instanceof IllegalStateException;
        return documentedType && e.getMessage() != null && !e.getMessage().isBlank();
    }

    private Map<String, String> randomParameters(Map<String, List<String>> keys, boolean methodLevel) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> key : keys.entrySet()) {
            if (random.nextInt(4) == 0) {
                parameters.put(key.getKey(), pick(key.getValue()));
            }
        }
        if (methodLevel) {
            for (String key : METHOD_KEYS) {
                if (random.nextInt(10) == 0) {
                    String method = random.nextBoolean() ? "greet" : "add";
                    parameters.put(method + "." + key, pick(CONSUMER_KEYS.get(key)));
                }
            }
        }
        if (random.nextInt(6) == 0) {
            parameters.put(garbage(), garbage());
        }
        return parameters;
    }

    private String[] randomProviderSpecs() {
        String[] specs = new String[random.nextInt(5)];
        for (int i = 0; i < specs.length; i++) {
            URL spec = WeftStack.consumerUrl("").addParameters(randomParameters(PROVIDER_KEYS, false));
            String text = spec.toFullString();
            int question = text.indexOf('?');
            specs[i] = question < 0 ? "" : text.substring(question + 1);
        }
        return specs;
    }

    private String garbage() {
        String chars = "ab.=&%:/ xyz0-_ç\"'{[";
        StringBuilder sb = new StringBuilder();
        int length = 1 + random.nextInt(8);
        for (int i = 0; i < length; i++) {
            sb.append(chars.charAt(random.nextInt(chars.length())));
        }
        return sb.toString();
    }

    private String pick(List<String> values) {
        return values.get(random.nextInt(values.size()));
    }

    private static String describe(List<FakeProvider<Greeter>> providers) {
        List<String> parts = new ArrayList<>();
        providers.forEach(p -> parts.add(p + " " + p.getUrl().toFullString()));
        return parts.toString();
    }

    private static List<Invoker<Greeter>> list(List<FakeProvider<Greeter>> providers) {
        return new ArrayList<>(providers);
    }
}
