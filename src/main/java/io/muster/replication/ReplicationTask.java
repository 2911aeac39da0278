package io.muster.replication;

import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.model.ReplicationItem;

import java.time.Instant;
import java.util.List;

/** Work for one peer. A newer task with the same key replaces a pending one, as in Eureka. */
sealed interface ReplicationTask {
    String app();

    String id();

    Instant expiresAt();

    String action();

    default String key() {
        return key(action(), app(), id());
    }

    static String key(String action, String app, String id) {
        return action + '#' + app + '/' + id;
    }

    /** The actions a later cancel of the same instance makes pointless (and harmful, if sent after it). */
    List<String> SUPERSEDED_BY_CANCEL = List.of(ReplicationItem.REGISTER,
            ReplicationItem.HEARTBEAT, ReplicationItem.STATUS_UPDATE, ReplicationItem.DELETE_STATUS_OVERRIDE);

    ReplicationItem item();

    record Register(InstanceInfo instance, Instant expiresAt) implements ReplicationTask {
        public String app() {
            return instance.app();
        }

        public String id() {
            return instance.id();
        }

        public String action() {
            return ReplicationItem.REGISTER;
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

        public String action() {
            return ReplicationItem.HEARTBEAT;
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
        public String action() {
            return ReplicationItem.CANCEL;
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

        public String action() {
            return ReplicationItem.STATUS_UPDATE;
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

        public String action() {
            return ReplicationItem.DELETE_STATUS_OVERRIDE;
        }

        public ReplicationItem item() {
            return new ReplicationItem(action(), app(), id(), instance.lastDirtyTimestamp(), instance.status().name(),
                    null, null);
        }
    }
}
