package io.muster.chaos;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The short run of the fault harness and of the soak (issue 16), part of mvn verify: every fault with small counts
 * and a shortened retry window (see {@link Chaos#quick()}), then two minutes of one node under steady load.
 * bench/chaos.sh and bench/soak.sh run the long ones (docs/reliability.md).
 */
class ChaosIT {
    private static final Path REPO = Path.of("").toAbsolutePath();

    @org.junit.jupiter.api.BeforeAll
    static void needsTomcat() {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(REPO.resolve("target/servers")),
                "the build unpacks the servers unless -Dservers.skip=true");
    }

    @Test
    void everyFaultHealsWithNothingLostOrResurrected() throws Exception {
        List<FaultResult> results = Chaos.run(REPO, Chaos.quick(), List.of());
        assertThat(results).extracting(FaultResult::fault).hasSize(12);
        for (FaultResult r : results) {
            assertThat(r.failures()).as(r.summary()).isEmpty();
            assertThat(r.verdict().lost()).as(r.fault() + ": acknowledged writes lost").isZero();
            assertThat(r.verdict().resurrected()).as(r.fault() + ": cancelled instances back").isZero();
        }
        assertThat(results.stream().filter(r -> r.fault().equals("instance cap")).findFirst().orElseThrow()
                .counts().capRefusals()).as("the cap was reached and answered 503 with Retry-After").isPositive();
    }

    @Test
    void aNodeUnderSteadyLoadHoldsItsHeapThreadsAndFiles() throws Exception {
        Soak.Result r = Soak.run(REPO, 2, 1000, 150);
        assertThat(r.failures()).as(r.table()).isEmpty();
        assertThat(r.samples()).hasSizeGreaterThanOrEqualTo(10);
    }
}
