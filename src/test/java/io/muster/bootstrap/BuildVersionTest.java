package io.muster.bootstrap;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The version comes from the filtered resource; a file that was not filtered, or says nothing, is "unknown". */
class BuildVersionTest {
    private static String from(String text) throws IOException {
        return BuildVersion.from(new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1)));
    }

    @Test
    void theBuildFilteredTheResource() {
        assertThat(BuildVersion.read()).isNotEqualTo(BuildVersion.UNKNOWN).matches("\\d+\\.\\d+\\.\\d+.*");
    }

    @Test
    void anUnfilteredOrEmptyFileIsUnknown() throws IOException {
        assertThat(from("version=1.2.3\n")).isEqualTo("1.2.3");
        assertThat(from("version=${project.version}\n")).isEqualTo(BuildVersion.UNKNOWN);
        assertThat(from("version=\n")).isEqualTo(BuildVersion.UNKNOWN);
        assertThat(from("# nothing\n")).isEqualTo(BuildVersion.UNKNOWN);
    }
}
