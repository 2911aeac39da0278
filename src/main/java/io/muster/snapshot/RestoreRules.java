package io.muster.snapshot;

import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;
import io.muster.model.LeaseInfo;
import io.muster.registry.CancelledHereException;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.InvalidInstanceException;
import io.muster.registry.RegistryFullException;

import java.time.Instant;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Puts a snapshot's instances back into the registry. A lease keeps the time it had left when saved minus the
 * time the node was down: it still expires one duration after its last renewal, so one that lapsed while the
 * node was down is dropped, and a snapshot older than the longest lease restores nothing. Statuses and overrides
 * are kept (restored as a peer's write, which keeps the status and is not replicated). Every instance passes the
 * registry's validation again: a snapshot written under looser limits must not bring in what a client could not.
 * Stateless.
 */
public final class RestoreRules {
    /** What a restore did. */
    public record Result(int restored, int expired, int refused) {
    }

    private RestoreRules() {
    }

    public static Result restore(Applications apps, InstanceRegistry registry, Instant now) {
        return restore(apps, registry, now, i -> true, i -> { });
    }

    /**
     * @param wanted   which saved instances to put back
     * @param restored told of each one put back
     */
    public static Result restore(Applications apps, InstanceRegistry registry, Instant now,
                                 Predicate<InstanceInfo> wanted, Consumer<InstanceInfo> restoredHook) {
        int restored = 0;
        int expired = 0;
        int refused = 0;
        for (Application app : apps.applications()) {
            for (InstanceInfo instance : app.instances()) {
                if (!wanted.test(instance)) {
                    continue;
                }
                LeaseInfo lease = instance.leaseInfo();
                Instant renewed = Instant.ofEpochMilli(lease.lastRenewalTimestamp());
                if (lease.lastRenewalTimestamp() <= 0
                        || !now.isBefore(renewed.plusSeconds(lease.durationInSecs()))) {
                    expired++;
                    continue;
                }
                try {
                    registry.restore(asRegistered(instance), orNull(lease.registrationTimestamp(), renewed),
                            renewed, orNull(lease.serviceUpTimestamp(), null));
                    restored++;
                    restoredHook.accept(instance);
                } catch (CancelledHereException e) {
                    refused++;   // cancelled since this file was saved (a peer handed the cancel over): not back
                } catch (InvalidInstanceException | RegistryFullException e) {
                    refused++;
                }
            }
        }
        return new Result(restored, expired, refused);
    }

    /** The instance as its client registered it: the lease timestamps are the registry's to report. */
    private static InstanceInfo asRegistered(InstanceInfo saved) {
        LeaseInfo l = saved.leaseInfo();
        return saved.withLeaseInfo(new LeaseInfo(l.renewalIntervalInSecs(), l.durationInSecs(), 0, 0, 0, 0));
    }

    private static Instant orNull(long millis, Instant fallback) {
        return millis > 0 ? Instant.ofEpochMilli(millis) : fallback;
    }
}
