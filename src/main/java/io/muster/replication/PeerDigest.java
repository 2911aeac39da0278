package io.muster.replication;

import java.util.Map;

/**
 * What {@code GET api/cluster/digest} answers: per-app hashes (see {@link ClusterDigest}) and the cancellations the
 * node saw within its recent-changes window ("APP/id" to the cancelled copy's lastDirtyTimestamp), so that a peer
 * lacking an instance because it was cancelled is not mistaken for one that missed a registration.
 */
public record PeerDigest(Map<String, String> apps, Map<String, Long> cancelled) {
    public PeerDigest {
        apps = Map.copyOf(apps);
        cancelled = Map.copyOf(cancelled);
    }

    static String key(String app, String id) {
        return app + "/" + id;
    }
}
