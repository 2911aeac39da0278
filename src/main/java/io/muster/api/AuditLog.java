package io.muster.api;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.muster.model.InstanceStatus;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Who changed what an instance's clients see, beside what happened: status overrides set and removed, operators'
 * actions and writes refused for want of a right, one line each on the logger {@code io.muster.audit} (route it
 * to a file of its own with the container's logging configuration).
 *
 * <p>Refusals are what a hostile or misconfigured client can repeat without end, so they are logged once a minute
 * per caller and application (the metric counts them all); the memory this takes is bounded.
 */
public final class AuditLog {
    private static final Logger LOG = Logger.getLogger("io.muster.audit");
    private static final Duration REFUSAL_QUIET = Duration.ofMinutes(1);
    /** Refusals seen and not yet logged, by caller and application. */
    private static final Cache<String, AtomicLong> QUIET = CacheBuilder.newBuilder().maximumSize(10_000)
            .expireAfterWrite(REFUSAL_QUIET).build();

    private AuditLog() {
    }

    public static void overrideSet(String by, String app, String id, InstanceStatus status) {
        LOG.info(() -> "audit: " + by + " set the status override of " + app + "/" + id + " to " + status);
    }

    public static void overrideRemoved(String by, String app, String id) {
        LOG.info(() -> "audit: " + by + " removed the status override of " + app + "/" + id);
    }

    public static void deregistered(String by, String app, String id) {
        LOG.info(() -> "audit: " + by + " deregistered " + app + "/" + id);
    }

    /** A write refused for want of a right: the first in a minute per caller and application is logged. */
    public static void refused(String by, String app, String reason) {
        String key = by + "\u0000" + app;
        AtomicLong since = QUIET.getIfPresent(key);
        if (since != null) {
            since.incrementAndGet();
            return;
        }
        AtomicLong fresh = new AtomicLong();
        AtomicLong raced = QUIET.asMap().putIfAbsent(key, fresh);
        if (raced != null) {
            raced.incrementAndGet();
            return;
        }
        LOG.warning(() -> "audit: refused a write by " + by + " to " + app + ": " + reason
                + " (further refusals of this caller for this application are not logged for "
                + REFUSAL_QUIET.toSeconds() + " s; muster_rejected_writes_total{reason=\"not_owner\"} counts them)");
    }
}
