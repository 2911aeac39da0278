package io.muster.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Prometheus' own checker of the text exposition ({@code promtool check metrics}): it parses a scrape as Prometheus
 * would and lints it (help text, counter names, reserved labels, units). From Debian's {@code prometheus} package,
 * which {@code .ci/run} installs; tests are skipped where it is absent.
 */
public final class Promtool {
    private static final String BINARY = System.getProperty("promtool", "/usr/bin/promtool");

    private Promtool() {
    }

    /** What promtool said and how it exited; a clean scrape is exit 0 with no output. */
    public record Result(int exit, String output) {
    }

    public static void assumeInstalled() {
        Assumptions.assumeTrue(new File(BINARY).canExecute(),
                "needs promtool from Debian's prometheus package (installed by .ci/run), or -Dpromtool=PATH");
    }

    public static Result checkMetrics(String scrape) {
        try {
            Process p = new ProcessBuilder(BINARY, "check", "metrics").redirectErrorStream(true).start();
            // promtool reads all of its input before it writes a word, so writing first cannot block on its output
            try (OutputStream in = p.getOutputStream()) {
                in.write(scrape.getBytes(StandardCharsets.UTF_8));
            }
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("promtool did not finish in 60 s");
            }
            return new Result(p.exitValue(), output.strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
