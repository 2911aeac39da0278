package io.muster.registry;

import io.muster.model.InstanceStatus;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Overrides belong to one application's instance and remember who set them; they are forgotten after an hour
 * without access, measured on a clock the test moves.
 */
class StatusOverridesTest {
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final StatusOverrides overrides = new StatusOverrides(clock);

    @Test
    void anOverrideUnusedForAnHourIsForgotten() {
        overrides.put("APP", "i-1", InstanceStatus.OUT_OF_SERVICE, "operator admin");
        clock.advance(Duration.ofMinutes(59));
        assertThat(overrides.byId()).containsKey("i-1");
        clock.advance(Duration.ofMinutes(1));
        assertThat(overrides.get("APP", "i-1")).isEmpty();
        assertThat(overrides.byId()).isEmpty();
    }

    @Test
    void readingAnOverrideKeepsItAnotherHour() {
        overrides.put("APP", "i-1", InstanceStatus.OUT_OF_SERVICE, "operator admin");
        clock.advance(Duration.ofMinutes(50));
        assertThat(overrides.get("APP", "i-1")).contains(InstanceStatus.OUT_OF_SERVICE);
        clock.advance(Duration.ofMinutes(50));
        assertThat(overrides.get("APP", "i-1")).contains(InstanceStatus.OUT_OF_SERVICE);
        clock.advance(Duration.ofMinutes(60));
        assertThat(overrides.get("APP", "i-1")).isEmpty();
    }

    @Test
    void putIfAbsentKeepsTheExistingOverrideAndRemoveReturnsIt() {
        overrides.put("APP", "i-1", InstanceStatus.DOWN, "client a");
        overrides.putIfAbsent("APP", "i-1", InstanceStatus.OUT_OF_SERVICE, "the registration");
        assertThat(overrides.remove("APP", "i-1")).contains(InstanceStatus.DOWN);
        assertThat(overrides.remove("APP", "i-1")).isEmpty();
    }

    @Test
    void theSameIdInAnotherApplicationIsAnotherOverride() {
        overrides.put("VICTIM", "v1", InstanceStatus.OUT_OF_SERVICE, "operator admin");
        assertThat(overrides.get("ATTACK", "v1")).isEmpty();
        overrides.put("ATTACK", "v1", InstanceStatus.DOWN, "client attacker");
        assertThat(overrides.remove("ATTACK", "v1")).contains(InstanceStatus.DOWN);
        assertThat(overrides.get("VICTIM", "v1")).contains(InstanceStatus.OUT_OF_SERVICE);
    }

    @Test
    void eachOverrideSaysWhoSetItAndWhenNewestFirst() {
        overrides.put("A", "a1", InstanceStatus.OUT_OF_SERVICE, "operator admin");
        clock.advance(Duration.ofSeconds(5));
        overrides.put("B", "b1", InstanceStatus.DOWN, "client billing");
        assertThat(overrides.records(10)).extracting(OverrideRecord::setBy)
                .containsExactly("client billing", "operator admin");
        assertThat(overrides.records(1)).hasSize(1);
        assertThat(overrides.records(10).get(1).at()).isEqualTo(clock.instant().minusSeconds(5));
    }

    @Test
    void twoApplicationsInstancesThatShareAnIdAreTwoOverridesThoughEurekasViewByIdShowsOne() {
        overrides.put("A", "same", InstanceStatus.OUT_OF_SERVICE, "operator admin");
        overrides.put("B", "same", InstanceStatus.DOWN, "client billing");
        assertThat(overrides.size()).isEqualTo(2);
        assertThat(overrides.records(10)).extracting(OverrideRecord::app).containsExactlyInAnyOrder("A", "B");
        assertThat(overrides.byId()).hasSize(1);
    }

    @Test
    void theCountLeavesOutOverridesForgottenAfterAnHourWithoutAccess() {
        overrides.put("A", "a1", InstanceStatus.OUT_OF_SERVICE, "operator admin");
        overrides.put("B", "b1", InstanceStatus.DOWN, "operator admin");
        clock.advance(Duration.ofMinutes(30));
        overrides.get("A", "a1");
        clock.advance(Duration.ofMinutes(31));
        assertThat(overrides.size()).isEqualTo(1);
        assertThat(overrides.records(10)).extracting(OverrideRecord::app).containsExactly("A");
    }
}
