package io.muster.registry;

import io.muster.model.InstanceInfo;
import io.muster.model.LeaseInfo;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/** One registered instance with the timing that eviction and clients care about. Immutable. */
public record Lease(InstanceInfo instance, Instant registeredAt, Instant lastRenewedAt, Duration duration,
                    Instant serviceUpAt) {

    public Lease {
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(registeredAt, "registeredAt");
        Objects.requireNonNull(lastRenewedAt, "lastRenewedAt");
        Objects.requireNonNull(duration, "duration");
    }

    static Lease fresh(InstanceInfo instance, Instant now, Instant serviceUpAt) {
        return new Lease(instance, now, now, Duration.ofSeconds(instance.leaseInfo().durationInSecs()), serviceUpAt);
    }

    Lease renewed(Instant now) {
        return new Lease(instance, registeredAt, now, duration, serviceUpAt);
    }

    Lease withInstance(InstanceInfo newInstance) {
        return new Lease(newInstance, registeredAt, lastRenewedAt, duration, serviceUpAt);
    }

    Lease serviceUp(Instant now) {
        return serviceUpAt != null ? this : new Lease(instance, registeredAt, lastRenewedAt, duration, now);
    }

    /**
     * The one place that says when a lease lapses.
     * Departure from Eureka: its renew() adds the duration and isExpired() adds it again, so a dead instance
     * lingers about 2x the duration. Ours lapses exactly one duration after the last renewal.
     */
    public Instant expiresAt() {
        return lastRenewedAt.plus(duration);
    }

    /** {@code grace} compensates a late eviction timer, as Eureka's {@code additionalLeaseMs} does. */
    public boolean isExpired(Instant now, Duration grace) {
        return now.isAfter(expiresAt().plus(grace));
    }

    /** The instance with {@code leaseInfo} describing this lease, as every read reports it. */
    public InstanceInfo decorated() {
        return decorate(instance);
    }

    /** {@code other} (this lease's instance or an earlier state of it) with this lease's timestamps. */
    InstanceInfo decorate(InstanceInfo other) {
        LeaseInfo asked = other.leaseInfo();
        LeaseInfo actual = new LeaseInfo(asked.renewalIntervalInSecs(), asked.durationInSecs(),
                registeredAt.toEpochMilli(), lastRenewedAt.toEpochMilli(), 0,
                serviceUpAt == null ? 0 : serviceUpAt.toEpochMilli());
        return actual.equals(asked) ? other : other.withLeaseInfo(actual);
    }
}
