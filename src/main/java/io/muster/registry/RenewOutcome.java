package io.muster.registry;

import io.muster.model.InstanceInfo;

/**
 * What a heartbeat resolved to. {@code NOT_FOUND} tells the client to register again; {@code CONFLICT} (only for
 * peers) carries this node's newer copy so the sending peer catches up.
 */
public record RenewOutcome(Result result, InstanceInfo newerInstance) {
    public enum Result { OK, NOT_FOUND, CONFLICT }

    static final RenewOutcome OK = new RenewOutcome(Result.OK, null);
    static final RenewOutcome NOT_FOUND = new RenewOutcome(Result.NOT_FOUND, null);

    static RenewOutcome conflict(InstanceInfo newer) {
        return new RenewOutcome(Result.CONFLICT, newer);
    }
}
