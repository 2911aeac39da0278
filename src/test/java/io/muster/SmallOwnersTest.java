package io.muster;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Classes stay small and named for one job: a main source file over {@value #LINES} lines must say, in its class
 * comment, why it is still one class ("One class, although long: ..."), so that the next one to grow gets split or
 * argued for, not just longer.
 */
class SmallOwnersTest {
    static final int LINES = 300;
    static final String REASON = "One class, although long:";

    @Test
    void everyMainClassOverThreeHundredLinesSaysWhyItIsOneClass() throws IOException {
        List<String> unexplained;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            unexplained = files.filter(f -> f.toString().endsWith(".java")).filter(f -> {
                try {
                    List<String> lines = Files.readAllLines(f);
                    return lines.size() > LINES && lines.stream().noneMatch(l -> l.contains(REASON));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).map(Path::toString).sorted().toList();
        }
        assertThat(unexplained).as("over %d lines with no \"%s\" in the class comment", LINES, REASON).isEmpty();
    }
}
