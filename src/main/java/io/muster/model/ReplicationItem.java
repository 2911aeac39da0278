package io.muster.model;

/**
 * One write in a peer replication batch, as Eureka's {@code ReplicationInstance} carries it. {@code instanceInfo}
 * is present for registrations only; the status fields may be null.
 */
public record ReplicationItem(String action, String appName, String id, Long lastDirtyTimestamp, String status,
                              String overriddenStatus, InstanceInfo instanceInfo) {
    public static final String REGISTER = "Register";
    public static final String HEARTBEAT = "Heartbeat";
    public static final String CANCEL = "Cancel";
    public static final String STATUS_UPDATE = "StatusUpdate";
    public static final String DELETE_STATUS_OVERRIDE = "DeleteStatusOverride";
}
