package io.muster.registry;

import io.muster.model.HeldOnce;
import io.muster.model.InstanceInfo;
import io.muster.model.LeaseInfo;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One registered instance with the timing that eviction and clients care about. Immutable.
 *
 * @param heartbeatMinute   the wall-clock minute ({@link RenewalRate#minuteOf}) of the last heartbeat counted here,
 *                          {@link #NEVER_RENEWED} until the instance renews: only an instance that renews is
 *                          expected to renew (self-preservation's count)
 * @param heartbeatsInMinute heartbeats seen in {@code heartbeatMinute}, saturating one past the instance's
 *                          allowance, so the registry can tell whether the latest one still counted
 * @param admittedBy        the client address whose share of the heap the instance counts against, or null (a
 *                          peer's copy, this node's own instance)
 */
public record Lease(InstanceInfo instance, Instant registeredAt, Instant lastRenewedAt, Duration duration,
                    Instant serviceUpAt, long heartbeatMinute, int heartbeatsInMinute, String admittedBy) {
    static final long NEVER_RENEWED = Long.MIN_VALUE;

    public Lease {
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(registeredAt, "registeredAt");
        Objects.requireNonNull(lastRenewedAt, "lastRenewedAt");
        Objects.requireNonNull(duration, "duration");
    }

    static Lease fresh(InstanceInfo instance, Instant now, Instant serviceUpAt, String admittedBy) {
        return new Lease(instance, now, now, duration(instance.leaseInfo().durationInSecs()), serviceUpAt,
                NEVER_RENEWED, 0, admittedBy);
    }

    /** Eureka's default lease, which nearly every lease is: one object rather than one per lease. */
    private static final Duration NINETY_SECONDS = Duration.ofSeconds(90);

    /** Other durations clients ask for, one object each (a handful per registry; bounded all the same). */
    private static final HeldOnce<Long, Duration> DURATIONS = new HeldOnce<>(1_024);

    private static Duration duration(long seconds) {
        return seconds == 90 ? NINETY_SECONDS : DURATIONS.get(seconds, Duration::ofSeconds);
    }

    /** Moves the expiry only: what a status update does (as in Eureka, it is not a heartbeat). */
    Lease renewed(Instant now) {
        return new Lease(instance, registeredAt, now, duration, serviceUpAt, heartbeatMinute, heartbeatsInMinute,
                admittedBy);
    }

    /** A heartbeat: moves the expiry and counts it against the instance's allowance for this minute. */
    Lease heartbeat(Instant now, int allowedPerMinute) {
        long minute = RenewalRate.minuteOf(now);
        int seen = minute == heartbeatMinute ? Math.min(heartbeatsInMinute + 1, allowedPerMinute + 1) : 1;
        return new Lease(instance, registeredAt, now, duration, serviceUpAt, minute, seen, admittedBy);
    }

    /** Whether the heartbeat that made this lease was within its allowance (asked right after {@link #heartbeat}). */
    boolean heartbeatCounted(int allowedPerMinute) {
        return heartbeatsInMinute <= allowedPerMinute;
    }

    /** Whether the instance has renewed (here, or before a restart or a sync brought it here). */
    public boolean hasRenewed() {
        return heartbeatMinute != NEVER_RENEWED;
    }

    /** Marks an instance that was renewing before it came here (a snapshot, a peer's registry) as renewing. */
    Lease renewingBefore(Instant at) {
        return hasRenewed() ? this : new Lease(instance, registeredAt, lastRenewedAt, duration, serviceUpAt,
                RenewalRate.minuteOf(at), 0, admittedBy);
    }

    /**
     * Stores {@code edited} (made under the change lock) in place of {@code id}'s current lease, keeping the
     * current heartbeat count: heartbeats change it without the lock, and a plain put could drop one or count one
     * twice.
     */
    static Lease replaceKeepingHeartbeats(java.util.Map<String, Lease> leases, String id, Lease edited) {
        return leases.computeIfPresent(id, (k, current) -> edited.withHeartbeatsOf(current));
    }

    /** This lease with {@code current}'s heartbeat count, which heartbeats change without the registry's lock. */
    Lease withHeartbeatsOf(Lease current) {
        return new Lease(instance, registeredAt, lastRenewedAt, duration, serviceUpAt, current.heartbeatMinute,
                current.heartbeatsInMinute, admittedBy);
    }

    Lease withInstance(InstanceInfo newInstance) {
        return new Lease(newInstance, registeredAt, lastRenewedAt, duration, serviceUpAt, heartbeatMinute,
                heartbeatsInMinute, admittedBy);
    }

    Lease serviceUp(Instant now) {
        return serviceUpAt != null ? this : new Lease(instance, registeredAt, lastRenewedAt, duration, now,
                heartbeatMinute, heartbeatsInMinute, admittedBy);
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
        LeaseInfo actual = leaseInfo(other.leaseInfo());
        return actual.equals(other.leaseInfo()) ? other : other.withLeaseInfo(actual);
    }

    /** {@code asked} (an instance's lease info as registered) with this lease's timestamps. */
    LeaseInfo leaseInfo(LeaseInfo asked) {
        return new LeaseInfo(asked.renewalIntervalInSecs(), asked.durationInSecs(), registeredAt.toEpochMilli(),
                lastRenewedAt.toEpochMilli(), 0, serviceUpAt == null ? 0 : serviceUpAt.toEpochMilli());
    }
}
