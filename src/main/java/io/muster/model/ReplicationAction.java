package io.muster.model;

/** What one item of a peer replication batch does, with the name Eureka's {@code ReplicationInstance} gives it. */
public enum ReplicationAction {
    REGISTER("Register"),
    HEARTBEAT("Heartbeat"),
    CANCEL("Cancel"),
    STATUS_UPDATE("StatusUpdate"),
    DELETE_STATUS_OVERRIDE("DeleteStatusOverride");

    private final String wireName;

    ReplicationAction(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The action of that wire name, or null for any other (including null). */
    public static ReplicationAction fromWire(String name) {
        for (ReplicationAction a : values()) {
            if (a.wireName.equals(name)) {
                return a;
            }
        }
        return null;
    }
}
