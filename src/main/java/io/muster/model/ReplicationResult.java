package io.muster.model;

/** The receiver's answer to one replicated write: an HTTP status and, for a heartbeat conflict, its newer copy. */
public record ReplicationResult(int statusCode, InstanceInfo responseEntity) {
    public static ReplicationResult of(int statusCode) {
        return new ReplicationResult(statusCode, null);
    }
}
