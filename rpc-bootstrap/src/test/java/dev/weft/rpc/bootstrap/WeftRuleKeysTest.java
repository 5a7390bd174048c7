package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.Registry;
import dev.weft.rpc.registry.RegistryFactory;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** An override rule's keys are checked as {@code refer}'s are: an unknown one is warned about, naming the closest. */
class WeftRuleKeysTest {

    @Test
    void overrideRuleWithAMistypedKey_isWarnedAbout_namingTheClosestKey_once() {
        PrintStream stderr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (Weft weft = Weft.builder().registry("memory://rule-keys").build()) {
            weft.export(Greeter.class, new NamedGreeter("p"), "weft://127.0.0.1:0");
            Greeter greeter = weft.refer(Greeter.class, "timeout=3000");
            Registry operator = weft.director().getExtensionLoader(RegistryFactory.class).getExtension("memory")
                    .getRegistry(URL.valueOf("memory://rule-keys"));
            operator.register(URL.valueOf("override://0.0.0.0/" + Greeter.class.getName()
                    + "?category=configurators&dynamic=false&greet.mokc=force:return+x&retries=1"));
            operator.register(URL.valueOf("override://0.0.0.0/" + Greeter.class.getName()
                    + "?category=configurators&dynamic=false&timeout=2000"));

            assertThat(greeter.greet("ada")).as("the rule still applies").isEqualTo("p:ada");
        } finally {
            System.setErr(stderr);
        }

        String log = captured.toString(StandardCharsets.UTF_8);
        assertThat(log).contains("Override rule key greet.mokc (did you mean 'greet.mock'?) in override://0.0.0.0/"
                + Greeter.class.getName());
        assertThat(log.split("greet.mokc \\(did you mean", -1)).as("warned once, though two refreshes saw it").hasSize(2);
    }
}
