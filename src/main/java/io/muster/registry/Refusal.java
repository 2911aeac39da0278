package io.muster.registry;

import java.util.Locale;

/**
 * Why a write was refused: the reason label of {@code muster_rejected_writes_total}. A small fixed set, so the
 * metric's series stay few whatever clients send.
 */
public enum Refusal {
    /** A required field (id, hostName, ipAddr, app, dataCenterInfo and its name) is absent. */
    MISSING_FIELD,
    /** A value some client could not decode: unknown dataCenterInfo name, bad port, bad metadata key, odd text. */
    INVALID_VALUE,
    /** {@code eureka.server.maxFieldLength} or {@code eureka.server.maxUrlLength}. */
    FIELD_LENGTH,
    /** {@code eureka.server.maxMetadataEntries}. */
    METADATA_ENTRIES,
    /** {@code eureka.server.maxMetadataBytes}. */
    METADATA_BYTES,
    /** {@code eureka.server.minLeaseDurationSeconds} / {@code maxLeaseDurationSeconds}. */
    LEASE_DURATION,
    /** {@code eureka.server.maxInstances}. */
    MAX_INSTANCES,
    /** {@code eureka.server.maxInstancesPerApp}. */
    MAX_INSTANCES_PER_APP,
    /** {@code eureka.server.maxRegistryHeapPercent}: the instances' estimated heap. */
    MAX_REGISTRY_BYTES,
    /** {@code eureka.server.maxAppHeapPercent}: one application's share of that heap. */
    MAX_APP_BYTES,
    /** {@code eureka.server.maxClientHeapPercent}: one client address's share of that heap. */
    MAX_CLIENT_BYTES,
    /** A peer's replicated registration no newer than a cancellation of the instance here ({@link Tombstones}). */
    CANCELLED_SINCE,
    /** {@code eureka.server.appOwnership}: the caller is not bound to the application it writes. */
    NOT_OWNER;

    /** A cap on the number of instances (not on what an instance holds, nor on memory). */
    public boolean countsInstances() {
        return this == MAX_INSTANCES || this == MAX_INSTANCES_PER_APP;
    }

    /** The metric label, e.g. {@code field_length}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
