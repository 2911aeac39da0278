package io.muster.model;

/**
 * One write in a peer replication batch, as Eureka's {@code ReplicationInstance} carries it. {@code instanceInfo}
 * is present for registrations only; the status fields may be null. A received item whose action is missing or
 * unknown, or that could not be read, has a null action.
 */
public record ReplicationItem(ReplicationAction action, String appName, String id, Long lastDirtyTimestamp,
                              String status, String overriddenStatus, InstanceInfo instanceInfo) {
}
