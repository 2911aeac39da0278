package io.muster.replication;

import io.muster.model.InstanceInfo;

/**
 * One instance on which this node and a peer disagree, and the rule that says which side is right.
 *
 * <p>The rule: the copy with the newer lastDirtyTimestamp wins (it is the client's own version of its record).
 * An instance on one side only is a registration the other side missed, unless the other side (or a third node)
 * cancelled it within its recent-changes window at a dirty timestamp at least as new as the surviving copy's: then
 * it is a cancellation the surviving side missed, and the cancellation wins (never resurrect a cancelled instance). Equal dirty
 * timestamps with different statuses name no winner: reported, not repaired. An instance that expired on one side is
 * not a cancellation (evictions are not replicated on purpose), so the live copy is copied back; if its client is
 * really gone it expires again on both sides.
 */
public record Drift(String app, String id, Kind kind, Repair repair) {
    public enum Kind { ONLY_HERE, ONLY_THERE, STATUS, DIRTY_TIMESTAMP }

    public enum Repair {
        /** Send our copy to the peer as a replicated registration. */
        PUSH,
        /** Register the peer's copy here (as a replicated write: validation applies, not replicated further). */
        PULL,
        /** The peer missed our cancellation: send it a replicated cancel. */
        CANCEL_THERE,
        /** We missed the peer's cancellation: cancel here. */
        CANCEL_HERE,
        /** Nobody is newer. */
        NONE
    }

    /**
     * @param here            our copy or null
     * @param there           the peer's copy or null
     * @param cancelledHere   dirty timestamp of the copy we (or a third node) cancelled recently, or null
     * @param cancelledThere  dirty timestamp of the copy the peer (or a third node) cancelled recently, or null (null for a
     *                        peer without a digest endpoint: a stock Eureka server's missing instance is pushed, as
     *                        its own heartbeat handling would)
     * @return null when the two copies agree
     */
    static Drift of(String app, String id, InstanceInfo here, InstanceInfo there, Long cancelledHere,
                    Long cancelledThere) {
        if (here != null && there != null) {
            boolean sameStatus = here.status() == there.status();
            long mine = here.lastDirtyTimestamp();
            long theirs = there.lastDirtyTimestamp();
            if (sameStatus && mine == theirs) {
                return null;
            }
            Repair r = mine > theirs ? Repair.PUSH : mine < theirs ? Repair.PULL : Repair.NONE;
            return new Drift(app, id, sameStatus ? Kind.DIRTY_TIMESTAMP : Kind.STATUS, r);
        }
        if (here != null) {
            boolean cancelled = cancelledThere != null && cancelledThere >= here.lastDirtyTimestamp();
            return new Drift(app, id, Kind.ONLY_HERE, cancelled ? Repair.CANCEL_HERE : Repair.PUSH);
        }
        boolean cancelled = cancelledHere != null && cancelledHere >= there.lastDirtyTimestamp();
        return new Drift(app, id, Kind.ONLY_THERE, cancelled ? Repair.CANCEL_THERE : Repair.PULL);
    }
}
