package io.muster.replication;

import java.util.Map;

/**
 * What {@code GET api/cluster/digest} answers: per-app hashes (see {@link ClusterDigest}) and the cancellations the
 * node saw within its recent-changes window ("APP/id" to the cancelled copy's lastDirtyTimestamp), so that a peer
 * lacking an instance because it was cancelled is not mistaken for one that missed a registration; and whether the
 * node holds reads, waiting for its own peers (then its registry is what it restored or was sent since, not the
 * cluster's).
 */
public record PeerDigest(Map<String, String> apps, Map<String, Long> cancelled, boolean readsHeld) {
    public PeerDigest {
        apps = Map.copyOf(apps);
        cancelled = Map.copyOf(cancelled);
    }

    public PeerDigest(Map<String, String> apps, Map<String, Long> cancelled) {
        this(apps, cancelled, false);
    }

    /** The same digest, saying whether the node holds reads (waiting for its peers at start). */
    public PeerDigest withReadsHeld(boolean held) {
        return new PeerDigest(apps, cancelled, held);
    }

    static String key(String app, String id) {
        return app + "/" + id;
    }
}
