package io.muster.registry;

import io.muster.model.InstanceInfo;

/**
 * A change to the registry, as listeners see it. Every change except a plain renewal is visible to clients: it
 * enters the delta and carries the registry {@code sequence} number it was made at.
 */
public sealed interface RegistryChange {
    /** The instance after the change (for a cancel or expiry: as it was when removed). */
    InstanceInfo instance();

    long sequence();

    /** Registered, or registered again; {@code previous} is the replaced instance or null. */
    record Registered(InstanceInfo instance, InstanceInfo previous, Origin origin, long sequence)
            implements RegistryChange {
        public boolean isNew() {
            return previous == null;
        }
    }

    /**
     * {@code version}: what the cancellation supersedes, every registration with a dirty timestamp no newer (see
     * {@link InstanceRegistry#cancel}); what its tombstone, its replication and its journal entry carry.
     */
    record Cancelled(InstanceInfo instance, Origin origin, long sequence, long version) implements RegistryChange {
    }

    /** Removed by eviction after its lease lapsed. Never replicated: every node evicts on its own clock. */
    record Expired(InstanceInfo instance, long sequence) implements RegistryChange {
    }

    /** An explicit status override was set. */
    record StatusChanged(InstanceInfo instance, Origin origin, long sequence) implements RegistryChange {
    }

    record OverrideDeleted(InstanceInfo instance, Origin origin, long sequence) implements RegistryChange {
    }

    /**
     * A heartbeat. Normally invisible ({@code sequence} 0); when the status rules changed the instance's status on
     * renewal, it is visible and carries a sequence.
     */
    record Renewed(InstanceInfo instance, Origin origin, long sequence) implements RegistryChange {
    }

    default boolean isVisible() {
        return sequence() != 0;
    }
}
