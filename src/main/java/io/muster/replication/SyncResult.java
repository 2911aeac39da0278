package io.muster.replication;

import io.muster.registry.TrafficGate.SyncOutcome;

/**
 * What one round of the registry sync found: the outcome, how many instances were copied and from which peer
 * (null when none answered), and whether a peer that answered served Muster's digest (a stock Eureka server has
 * none), whose cancellations the start-up catch-up can read again (see {@link PeerCluster#catchUp}).
 */
public record SyncResult(SyncOutcome outcome, int copied, String peer, boolean digests) {
}
