package io.muster.replication;

import java.time.Duration;

/**
 * Told the replication lag of each task a peer acknowledged, on that peer's batcher thread; the metrics keep a
 * histogram of them (the dashboard's p50/p99 come from the batcher's own window).
 */
@FunctionalInterface
public interface LagObserver {
    LagObserver NONE = (peer, lag) -> { };

    /** @param peer the peer's URL as {@link PeerNode.Status#url()} shows it */
    void delivered(String peer, Duration lag);
}
