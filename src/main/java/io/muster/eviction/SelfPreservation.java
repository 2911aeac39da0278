package io.muster.eviction;

import io.muster.config.ServerConfig.SelfPreservationConfig;
import io.muster.registry.InstanceRegistry;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Eureka's self-preservation: when renewals in the last minute fall to or below a threshold derived from the
 * number of clients expected to renew, the server assumes a network problem rather than mass death and stops
 * expiring leases. Eureka's arithmetic: threshold = (int) (expected x (60 / expected renewal interval) x
 * renewalPercentThreshold).
 *
 * <p>Departure from Eureka, so that no stranger can steer it: the expected clients are the instances that have
 * renewed ({@link InstanceRegistry#renewingInstances}), not every registration: a registration that never renews
 * (junk, or a client that died at once) does not raise the threshold and so cannot keep a dead instance listed;
 * instances copied from a peer or restored from a snapshot were renewing there and count from the start. The
 * renewals are counted per instance, at most what its interval allows in the minute
 * ({@link InstanceRegistry#renewalsLastMinute}), so a flood of heartbeats for one instance cannot outweigh the
 * silence of many and switch self-preservation off. Both are kept by the registry, so nothing here runs per
 * heartbeat.
 *
 * <p>On top of them, the operator's start-up figures (Spring's {@code expectedNumberOfClientsSendingRenews} and
 * {@code defaultOpenForTrafficCount}, 0 by default; Spring starts at 1 and so shows the EMERGENCY banner on tiny
 * clusters, spring-cloud-netflix#2407) are expected until the periodic update adopts the actual count, by
 * Eureka's rule.
 *
 * <p>Thread safety: the configured part is changed by the deploying thread and the fresh lane (the periodic
 * update), which may run at the same time as the peers lane's sync retries: its two writers synchronize on this,
 * and it is published through a volatile field; the rest is read from the registry.
 */
public final class SelfPreservation {
    private final SelfPreservationConfig config;
    private final InstanceRegistry registry;
    private volatile int configured;
    private volatile Instant measuringFrom;

    public SelfPreservation(SelfPreservationConfig config, InstanceRegistry registry) {
        this.config = config;
        this.registry = registry;
    }

    /**
     * Clients expected on top of the instances that renew, from the operator's start-up settings; restored and
     * copied instances count themselves.
     */
    public synchronized void expectClients(int count) {
        configured = Math.max(0, count);
    }

    /**
     * The renewal count starts again from here (start-up, or a sync that brought in instances): until it covers a
     * whole minute, "few renewals" means "not measured yet", not "clients are gone".
     */
    public void measureFrom(Instant now) {
        measuringFrom = now;
    }

    /** When the renewal count will first cover a whole minute since {@link #measureFrom}, or null if it does. */
    public Instant measuringUntil(Instant now) {
        Instant from = measuringFrom;
        if (from == null) {
            return null;
        }
        // the count reports the previous whole clock minute: the first one after `from` ends two minutes after
        // the start of from's minute
        Instant until = from.truncatedTo(ChronoUnit.MINUTES).plus(2, ChronoUnit.MINUTES);
        return now.isBefore(until) ? until : null;
    }

    /**
     * The periodic update (every 15 minutes by default), Eureka's rule: the actual count replaces the expected one
     * when it is more than the share we would tolerate losing, or always when self-preservation is off. Only the
     * configured start-up figure can make the two differ.
     */
    public synchronized void updateThreshold() {
        int actual = registry.renewingInstances();
        if (actual > config.renewalPercentThreshold() * (actual + configured) || !config.enabled()) {
            configured = 0;
        }
    }

    /** Whether leases may expire now. */
    public boolean allowsExpiry() {
        return allows(registry.renewalsLastMinute(), threshold());
    }

    private boolean allows(long renewals, int threshold) {
        return !config.enabled() || (threshold > 0 && renewals > threshold);
    }

    /** What self-preservation does now and why, from one reading of the renewal count. */
    public PreservationVerdict verdict(Instant now) {
        long renewals = registry.renewalsLastMinute();
        int threshold = threshold();
        return PreservationVerdict.of(config.enabled(), allows(renewals, threshold), renewals, threshold,
                expectedClients(), measuringUntil(now));
    }

    public boolean isEnabled() {
        return config.enabled();
    }

    public int expectedClients() {
        return registry.renewingInstances() + configured;
    }

    /** Registered instances that have never renewed: listed, but not expected to renew. */
    public int neverRenewed() {
        return Math.max(0, registry.size() - registry.renewingInstances());
    }

    public int threshold() {
        double perMinute = 60.0 / config.expectedClientRenewalInterval().toSeconds();
        return (int) (expectedClients() * perMinute * config.renewalPercentThreshold());
    }
}
