package io.muster.registry;

import io.muster.model.InstanceStatus;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Overrides are forgotten after an hour without access, measured on a clock the test moves. */
class StatusOverridesTest {
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final StatusOverrides overrides = new StatusOverrides(clock);

    @Test
    void anOverrideUnusedForAnHourIsForgotten() {
        overrides.put("i-1", InstanceStatus.OUT_OF_SERVICE);
        clock.advance(Duration.ofMinutes(59));
        assertThat(overrides.snapshot()).containsKey("i-1");
        clock.advance(Duration.ofMinutes(1));
        assertThat(overrides.get("i-1")).isEmpty();
        assertThat(overrides.snapshot()).isEmpty();
    }

    @Test
    void readingAnOverrideKeepsItAnotherHour() {
        overrides.put("i-1", InstanceStatus.OUT_OF_SERVICE);
        clock.advance(Duration.ofMinutes(50));
        assertThat(overrides.get("i-1")).contains(InstanceStatus.OUT_OF_SERVICE);
        clock.advance(Duration.ofMinutes(50));
        assertThat(overrides.get("i-1")).contains(InstanceStatus.OUT_OF_SERVICE);
        clock.advance(Duration.ofMinutes(60));
        assertThat(overrides.get("i-1")).isEmpty();
    }

    @Test
    void putIfAbsentKeepsTheExistingOverrideAndRemoveReturnsIt() {
        overrides.put("i-1", InstanceStatus.DOWN);
        overrides.putIfAbsent("i-1", InstanceStatus.OUT_OF_SERVICE);
        assertThat(overrides.remove("i-1")).contains(InstanceStatus.DOWN);
        assertThat(overrides.remove("i-1")).isEmpty();
    }
}
