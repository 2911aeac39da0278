package io.muster.replication;

import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.model.ReplicationAction;
import io.muster.model.ReplicationItem;

import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;

/** Work for one peer. A newer task with the same key replaces a pending one, as in Eureka. */
sealed interface ReplicationTask {
    String app();

    String id();

    Instant expiresAt();

    ReplicationAction action();

    default String key() {
        return key(action(), app(), id());
    }

    static String key(ReplicationAction action, String app, String id) {
        return action.name() + '#' + app + '/' + id;
    }

    /** The actions a later cancel of the same instance makes pointless (and harmful, if sent after it). */
    Set<ReplicationAction> SUPERSEDED_BY_CANCEL = EnumSet.of(ReplicationAction.REGISTER,
            ReplicationAction.HEARTBEAT, ReplicationAction.STATUS_UPDATE, ReplicationAction.DELETE_STATUS_OVERRIDE);

    ReplicationItem item();

    record Register(InstanceInfo instance, Instant expiresAt) implements ReplicationTask {
        public String app() {
            return instance.app();
        }

        public String id() {
            return instance.id();
        }

        public ReplicationAction action() {
            return ReplicationAction.REGISTER;
        }

        public ReplicationItem item() {
            return new ReplicationItem(action(), app(), id(), instance.lastDirtyTimestamp(), instance.status().name(),
                    null, instance);
        }
    }

    /** Carries the stored instance so that a peer whose copy differs can tell (and the override, if any). */
    record Heartbeat(InstanceInfo instance, Instant expiresAt) implements ReplicationTask {
        public String app() {
            return instance.app();
        }

        public String id() {
            return instance.id();
        }

        public ReplicationAction action() {
            return ReplicationAction.HEARTBEAT;
        }

        public ReplicationItem item() {
            InstanceStatus override = instance.overriddenStatus();
            return new ReplicationItem(action(), app(), id(), instance.lastDirtyTimestamp(), instance.status().name(),
                    override == InstanceStatus.UNKNOWN ? null : override.name(), null);
        }
    }

    /**
     * Carries the version cancelled (null when not known): a Muster peer that does not hold the instance yet (its
     * start-up sync still copying) remembers the cancel, so the copy that arrives after it is refused. Stock
     * Eureka peers ignore the field on a cancel.
     */
    record Cancel(String app, String id, Long lastDirtyTimestamp, Instant expiresAt) implements ReplicationTask {
        public ReplicationAction action() {
            return ReplicationAction.CANCEL;
        }

        public ReplicationItem item() {
            return new ReplicationItem(action(), app, id, lastDirtyTimestamp, null, null, null);
        }
    }

    record StatusUpdate(InstanceInfo instance, Instant expiresAt) implements ReplicationTask {
        public String app() {
            return instance.app();
        }

        public String id() {
            return instance.id();
        }

        public ReplicationAction action() {
            return ReplicationAction.STATUS_UPDATE;
        }

        public ReplicationItem item() {
            return new ReplicationItem(action(), app(), id(), instance.lastDirtyTimestamp(), instance.status().name(),
                    null, null);
        }
    }

    record DeleteStatusOverride(InstanceInfo instance, Instant expiresAt) implements ReplicationTask {
        public String app() {
            return instance.app();
        }

        public String id() {
            return instance.id();
        }

        public ReplicationAction action() {
            return ReplicationAction.DELETE_STATUS_OVERRIDE;
        }

        public ReplicationItem item() {
            return new ReplicationItem(action(), app(), id(), instance.lastDirtyTimestamp(), instance.status().name(),
                    null, null);
        }
    }
}
