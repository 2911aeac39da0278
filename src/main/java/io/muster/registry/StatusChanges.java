package io.muster.registry;

import io.muster.model.ActionType;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Status overrides set and deleted ({@code PUT} and {@code DELETE .../status}), with Eureka's rules: an unchanged
 * status records nothing, the change counts as a renewal for expiry, and the version is the newer of the caller's
 * and the stored one.
 *
 * <p>Thread safety: each change runs under the registry's change lock, which {@link InstanceRegistry} owns and
 * hands over.
 */
final class StatusChanges {
    private final Map<String, Map<String, Lease>> apps;
    private final ReentrantLock changeLock;
    private final StatusOverrides overrides;
    private final ChangeRecorder recorder;
    private final Clock clock;

    StatusChanges(Map<String, Map<String, Lease>> apps, ReentrantLock changeLock, StatusOverrides overrides,
                  ChangeRecorder recorder, Clock clock) {
        this.apps = apps;
        this.changeLock = changeLock;
        this.overrides = overrides;
        this.recorder = recorder;
        this.clock = clock;
    }

    /** @param setBy who asks, as the dashboard and the audit log name them ({@code operator admin}) */
    boolean set(String app, String id, InstanceStatus newStatus, Long lastDirtyTimestamp, Origin origin,
                String setBy) {
        return change(app, id, lastDirtyTimestamp, origin, lease -> {
            if (lease.instance().status() == newStatus) {
                return null;   // Eureka records nothing (and creates no override) when the status is unchanged
            }
            overrides.put(lease.instance().app(), id, newStatus, setBy);
            return lease.instance().toBuilder().overriddenStatus(newStatus).status(newStatus);
        });
    }

    /** The status becomes {@code newStatus} (UNKNOWN when the caller gave none). */
    boolean delete(String app, String id, InstanceStatus newStatus, Long lastDirtyTimestamp, Origin origin) {
        return change(app, id, lastDirtyTimestamp, origin, lease -> overrides.remove(lease.instance().app(), id)
                .isEmpty() ? null
                : lease.instance().toBuilder().overriddenStatus(InstanceStatus.UNKNOWN).status(newStatus));
    }

    private interface StatusEdit {
        /** The edited instance, or null when nothing changes. */
        InstanceInfo.Builder apply(Lease lease);
    }

    private boolean change(String app, String id, Long lastDirtyTimestamp, Origin origin, StatusEdit edit) {
        Instant now = clock.instant();
        changeLock.lock();
        try {
            Map<String, Lease> leases = apps.get(app);
            Lease lease = leases == null ? null : leases.get(id);
            if (lease == null) {
                return false;
            }
            lease = lease.renewed(now);    // counts for expiry, not for the renewal rate (as in Eureka)
            InstanceInfo.Builder edited = edit.apply(lease);
            if (edited != null) {
                long dirty = lastDirtyTimestamp != null
                        ? Math.max(lastDirtyTimestamp, lease.instance().lastDirtyTimestamp())
                        : lease.instance().lastDirtyTimestamp();
                InstanceInfo changed = edited.lastDirtyTimestamp(dirty).actionType(ActionType.MODIFIED)
                        .lastUpdatedTimestamp(now.toEpochMilli()).build();
                lease = lease.withInstance(changed);
                if (changed.status() == InstanceStatus.UP) {
                    lease = lease.serviceUp(now);
                }
                Lease.replaceKeepingHeartbeats(leases, id, lease);
                recorder.record(now, changed, "STATUS " + changed.status());
                boolean overrideSet = changed.overriddenStatus() != InstanceStatus.UNKNOWN;
                recorder.publish(overrideSet ? new RegistryChange.StatusChanged(changed, origin, recorder.sequence())
                        : new RegistryChange.OverrideDeleted(changed, origin, recorder.sequence()));
            } else {
                Lease.replaceKeepingHeartbeats(leases, id, lease);
            }
            return true;
        } finally {
            changeLock.unlock();
        }
    }
}
