package dev.weft.rpc.spring.boot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The generated property metadata (what an IDE completes) and the names start-up accepts are the same list. */
class PropertyMetadataTest {

    @Test
    void generatedMetadata_listsExactlyTheCheckedNames_withDefaults() throws Exception {
        JsonNode metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            metadata = new ObjectMapper().readTree(in);
        }
        List<String> names = new ArrayList<>();
        for (JsonNode property : metadata.get("properties")) {
            names.add(property.get("name").asText());
            if (property.get("name").asText().equals("weft.host")) {
                assertThat(property.get("defaultValue").asText()).isEqualTo("127.0.0.1");
            }
            assertThat(property.get("description").asText()).isNotBlank();
        }
        assertThat(names).containsExactlyInAnyOrderElementsOf(WeftProperties.NAMES);
    }
}
