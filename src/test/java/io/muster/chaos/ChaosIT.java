package io.muster.chaos;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The short run of the fault harness (issue 16), part of mvn verify: every fault with small counts and a shortened
 * retry window (see {@link Chaos#quick()}). bench/chaos.sh runs the long one (docs/reliability.md); {@link SoakIT}
 * is the short soak.
 */
class ChaosIT {
    private static final Path REPO = Path.of("").toAbsolutePath();

    @org.junit.jupiter.api.BeforeAll
    static void needsTomcat() {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(REPO.resolve("target/servers")),
                "the build unpacks the servers unless -Dservers.skip=true");
    }

    /** Every fault of bench/chaos.sh, in the short run's sizes. */
    private static final List<String> SHORT_RUN = List.of();

    @Test
    void everyFaultHealsWithNothingLostOrResurrected() throws Exception {
        List<FaultResult> results = Chaos.run(REPO, Chaos.quick(), SHORT_RUN, 1);
        assertThat(results).extracting(FaultResult::fault).hasSize(Chaos.FAULTS + 1);   // and the baseline
        for (FaultResult r : results) {
            assertThat(r.failures()).as(r.summary() + explained(r)).isEmpty();
            assertThat(r.verdict().lost()).as(r.fault() + ": acknowledged writes lost").isZero();
            assertThat(r.verdict().resurrected()).as(r.fault() + ": cancelled instances back").isZero();
        }
    }

    /** The trace of a failed fault, bounded: a CI log keeps the assertion's message, not the harness's output. */
    private static String explained(FaultResult r) {
        if (r.passed()) {
            return "";
        }
        return "\n" + String.join("\n", r.trace().stream().limit(80)
                .map(l -> l.length() > 400 ? l.substring(0, 400) + "..." : l).toList());
    }
}
