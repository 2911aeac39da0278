package io.muster.eviction;

import io.muster.config.ServerConfig.EvictionConfig;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Lease;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;

/**
 * One eviction pass: expired leases, capped so one pass never removes more than the share of the registry that
 * self-preservation tolerates losing, chosen at random across apps (so one app is not wiped first).
 *
 * <p>Thread safety: meant for one thread (the server's fresh lane); the counters are safe to read from anywhere.
 */
public final class Evictor {
    private static final Logger LOG = Logger.getLogger(Evictor.class.getName());
    private final EvictionConfig config;
    private final double renewalPercentThreshold;
    private final InstanceRegistry registry;
    private final SelfPreservation selfPreservation;
    private final Clock clock;
    private final Random random;
    private final AtomicReference<Instant> lastRun = new AtomicReference<>();
    private volatile boolean preserving;
    private final LongAdder evicted = new LongAdder();

    public Evictor(EvictionConfig config, double renewalPercentThreshold, InstanceRegistry registry,
                   SelfPreservation selfPreservation, Clock clock, Random random) {
        this.config = config;
        this.renewalPercentThreshold = renewalPercentThreshold;
        this.registry = registry;
        this.selfPreservation = selfPreservation;
        this.clock = clock;
        this.random = random;
    }

    /** Runs one pass; returns how many leases were expired. */
    public int run() {
        Instant now = clock.instant();
        Instant previous = lastRun.getAndSet(now);
        PreservationVerdict verdict = selfPreservation.verdict(now);
        logTransition(verdict);
        if (verdict.keepsLapsedLeases()) {
            return 0;
        }
        List<Lease> expired = new ArrayList<>(registry.views().expiredLeases(compensation(previous, now)));
        if (expired.isEmpty()) {
            return 0;
        }
        int count = Math.min(expired.size(), passLimit());
        Collections.shuffle(expired, random);
        int done = 0;
        for (Lease lease : expired.subList(0, count)) {
            // the lease as scanned: one renewed since (a heartbeat racing this pass) is not expired
            if (registry.expire(lease)) {
                done++;
            }
        }
        evicted.add(done);
        return done;
    }

    /**
     * The most one pass removes: the share of the registry self-preservation tolerates losing (Eureka's rule, with
     * the configured {@code renewalPercentThreshold}).
     */
    public int passLimit() {
        int size = registry.size();
        return size - (int) (size * renewalPercentThreshold);
    }

    /**
     * One log line when self-preservation engages or releases, in the dashboard's words. A count that does not
     * cover a whole minute yet (after the start or a sync) is no emergency, so it is not reported as one.
     */
    private void logTransition(PreservationVerdict verdict) {
        boolean nowPreserving = verdict.mode() == PreservationVerdict.Mode.PRESERVING;
        if (nowPreserving && !preserving) {
            preserving = true;
            LOG.warning("Muster: " + verdict.text());
        } else if (preserving && !verdict.keepsLapsedLeases()) {
            preserving = false;
            LOG.info("Muster: self-preservation released: " + verdict.text());
        }
    }

    /** A timer that fired late (GC pause, overload) must not count the delay against the leases. */
    private Duration compensation(Instant previous, Instant now) {
        if (previous == null) {
            return Duration.ZERO;
        }
        Duration late = Duration.between(previous, now).minus(config.interval());
        return late.isNegative() ? Duration.ZERO : late;
    }

    public long evictedTotal() {
        return evicted.sum();
    }
}
