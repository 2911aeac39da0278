package io.muster.registry;

import io.muster.testing.Instances;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class LeaseTest {
    private final Instant t0 = Instant.ofEpochMilli(1_000_000);
    private final Lease lease = Lease.fresh(Instances.up("APP", "i-1"), t0, null, null);

    // Departure from Eureka: its lease lapses about 2x the duration after the last renewal. Ours: exactly 1x.
    @Test
    void abandonedLeaseExpiresExactlyOneDurationAfterLastRenewal() {
        Lease renewed = lease.renewed(t0.plusSeconds(30));
        assertThat(renewed.isExpired(t0.plusSeconds(120), Duration.ZERO)).isFalse();
        assertThat(renewed.isExpired(t0.plusSeconds(120).plusMillis(1), Duration.ZERO)).isTrue();
    }

    @Test
    void graceExtendsExpiryForALateTimer() {
        assertThat(lease.isExpired(t0.plusSeconds(91), Duration.ofSeconds(5))).isFalse();
        assertThat(lease.isExpired(t0.plusSeconds(96), Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void decoratedInstanceReportsLeaseTimestamps() {
        Lease up = lease.serviceUp(t0).renewed(t0.plusSeconds(30));
        var info = up.decorated().leaseInfo();
        assertThat(info.registrationTimestamp()).isEqualTo(t0.toEpochMilli());
        assertThat(info.lastRenewalTimestamp()).isEqualTo(t0.plusSeconds(30).toEpochMilli());
        assertThat(info.serviceUpTimestamp()).isEqualTo(t0.toEpochMilli());
        assertThat(info.durationInSecs()).isEqualTo(90);
    }
}
