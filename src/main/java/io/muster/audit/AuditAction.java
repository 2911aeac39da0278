package io.muster.audit;

/** What an entry of the trail records; each has the words its log line uses. */
public enum AuditAction {
    OVERRIDE_SET("set the status override of"),
    OVERRIDE_REMOVED("removed the status override of"),
    DEREGISTERED("deregistered"),
    /** An operator's action that names no instance (run the cluster check, write the snapshot). */
    OPERATION("ran"),
    REFUSED("refused");

    private final String verb;

    AuditAction(String verb) {
        this.verb = verb;
    }

    String verb() {
        return verb;
    }
}
