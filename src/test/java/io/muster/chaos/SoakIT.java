package io.muster.chaos;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The short soak (issue 16), part of mvn verify: two minutes of one node on Tomcat under steady load. A class of its
 * own, not a step of {@link ChaosIT}: the soak mostly waits between samples, so it runs in a fork of its own beside
 * the embedded-Payara suites (the failsafe execution "arquillian", pom.xml), which leave a core idle about a quarter
 * of the time, instead of after the faults. bench/soak.sh runs the long one (docs/reliability.md).
 */
class SoakIT {
    private static final Path REPO = Path.of("").toAbsolutePath();

    @BeforeAll
    static void needsTomcat() {
        Assumptions.assumeTrue(Files.isDirectory(REPO.resolve("target/servers")),
                "the build unpacks the servers unless -Dservers.skip=true");
    }

    @Test
    void aNodeUnderSteadyLoadHoldsItsHeapThreadsAndFiles() throws Exception {
        Soak.Result r = Soak.run(REPO, 2, 1000, 150);
        assertThat(r.failures()).as(r.table()).isEmpty();
        assertThat(r.samples()).hasSizeGreaterThanOrEqualTo(10);
    }
}
