package dev.weft.rpc.spi.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DescriptorReaderTest {

    private final List<DescriptorLine> lines = new ArrayList<>();
    private final List<ExtensionProblem> problems = new ArrayList<>();

    private void parse(String raw) {
        DescriptorReader.parseLine(raw, "f:1", getClass().getClassLoader(), lines, problems);
    }

    @Test
    void parseLine_readsNamesAliasesCommentsAndBareClasses() {
        parse("  random = com.example.RandomThing  # trailing comment");
        parse("a, b ,c=com.example.Multi");
        parse("com.example.Bare");
        parse("   # only a comment");
        parse("");
        assertThat(lines).extracting(DescriptorLine::names)
                .containsExactly(List.of("random"), List.of("a", "b", "c"), List.of());
        assertThat(lines).extracting(DescriptorLine::className)
                .containsExactly("com.example.RandomThing", "com.example.Multi", "com.example.Bare");
        assertThat(problems).isEmpty();
    }

    @Test
    void parseLine_reportsMalformedLinesWithTheirSource() {
        parse("=com.example.NoName");
        parse("name=");
        parse("bad name=com.example.X");
        parse("x=com..example.X");
        assertThat(lines).isEmpty();
        assertThat(problems).extracting(ExtensionProblem::message).containsExactly(
                "line: '=com.example.NoName' (expected: name=class, names before '=')",
                "class name: '' (expected: a binary class name such as com.example.MyExtension)",
                "name: 'bad name' (expected: letters, digits, '.', '-', '_', '$')",
                "class name: 'com..example.X' (expected: a binary class name such as com.example.MyExtension)");
        assertThat(problems).allSatisfy(p -> assertThat(p.source()).isEqualTo("f:1"));
    }

    @Test
    void closestName_suggestsWithinASmallDistanceOnly() {
        assertThat(dev.weft.rpc.common.NameSuggestions.closest("randon", List.of("random", "roundrobin"))).isEqualTo("random");
        assertThat(dev.weft.rpc.common.NameSuggestions.closest("xyz", List.of("random", "roundrobin"))).isNull();
    }

}
