package io.muster.eviction;

import io.muster.config.ServerConfig.SelfPreservationConfig;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.RegistryChange;
import io.muster.registry.RegistryListener;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Eureka's self-preservation: when renewals in the last minute fall to or below a threshold derived from the
 * number of clients expected to renew, the server assumes a network problem rather than mass death and stops
 * expiring leases.
 *
 * <p>The expected count starts at the number of instances copied at start-up (0 when alone) and moves on every
 * registration, cancellation and eviction, local or replicated. Departure from Spring Cloud, which starts at 1
 * and so shows the EMERGENCY banner on tiny clusters (spring-cloud-netflix#2407).
 *
 * <p>Thread safety: counters are changed under the registry's change lock (listener calls) or by the scheduler's
 * single thread; a private monitor makes each read-modify-write atomic and volatile fields publish the results.
 */
public final class SelfPreservation implements RegistryListener {
    private final SelfPreservationConfig config;
    private final InstanceRegistry registry;
    private final Object lock = new Object();
    private volatile int expectedClients;
    private volatile int threshold;
    private volatile Instant measuringFrom;

    public SelfPreservation(SelfPreservationConfig config, InstanceRegistry registry) {
        this.config = config;
        this.registry = registry;
    }

    /** At start-up: the instances copied from peers are the clients expected to renew. */
    public void expectClients(int count) {
        synchronized (lock) {
            expectedClients = Math.max(0, count);
            recompute();
        }
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

    @Override
    public void onChange(RegistryChange change) {
        int delta = 0;
        if (change instanceof RegistryChange.Registered r && r.isNew()) {
            delta = 1;
        } else if (change instanceof RegistryChange.Cancelled || change instanceof RegistryChange.Expired) {
            delta = -1;
        }
        if (delta != 0) {
            synchronized (lock) {
                expectedClients = Math.max(0, expectedClients + delta);
                recompute();
            }
        }
    }

    /**
     * The periodic correction (every 15 minutes by default): adopt the registry's actual size when it is larger
     * than the share we would tolerate losing, or always when self-preservation is off.
     */
    public void updateThreshold() {
        int count = registry.size();
        synchronized (lock) {
            if (count > config.renewalPercentThreshold() * expectedClients || !config.enabled()) {
                expectedClients = count;
            }
            recompute();
        }
    }

    private void recompute() {
        double perMinute = 60.0 / config.expectedClientRenewalInterval().toSeconds();
        threshold = (int) (expectedClients * perMinute * config.renewalPercentThreshold());
    }

    /** Whether leases may expire now. */
    public boolean allowsExpiry() {
        return !config.enabled() || (threshold > 0 && registry.renewalsLastMinute() > threshold);
    }

    /** Renewals last minute at or below the threshold (what the dashboard's banner reports). */
    public boolean isBelowRenewalThreshold() {
        return registry.renewalsLastMinute() <= threshold;
    }

    public boolean isEnabled() {
        return config.enabled();
    }

    public int expectedClients() {
        return expectedClients;
    }

    public int threshold() {
        return threshold;
    }
}
