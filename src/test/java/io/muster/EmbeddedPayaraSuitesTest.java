package io.muster;

import org.junit.jupiter.api.Test;
import org.junit.platform.suite.api.SelectClasses;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded-Payara ITs run only through the two suites (the failsafe execution includes nothing else): an IT
 * that is in neither would never run, and one in both would run twice.
 */
class EmbeddedPayaraSuitesTest {
    private static final Path TESTS = Path.of("src/test/java");

    @Test
    void everyEmbeddedPayaraItIsInExactlyOneSuite() throws IOException {
        List<String> selected = new ArrayList<>();
        for (Class<?> suite : List.of(EmbeddedPayaraSuiteOneIT.class, EmbeddedPayaraSuiteTwoIT.class)) {
            selected.addAll(List.of(suite.getAnnotation(SelectClasses.class).names()));
        }
        List<String> its;
        try (Stream<Path> files = Files.walk(TESTS)) {
            its = files.map(p -> TESTS.relativize(p).toString().replace('\\', '/'))
                    .filter(p -> p.endsWith("IT.java") && !p.startsWith("io/muster/compat/")
                            && !p.startsWith("io/muster/chaos/") && !p.startsWith("io/muster/EmbeddedPayaraSuite"))
                    .map(p -> p.substring(0, p.length() - ".java".length()).replace('/', '.'))
                    .sorted().toList();
        }
        assertThat(its).as("the embedded-Payara ITs").hasSizeGreaterThanOrEqualTo(12);
        assertThat(selected).as("selected by the suites, each once").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(its);
    }
}
